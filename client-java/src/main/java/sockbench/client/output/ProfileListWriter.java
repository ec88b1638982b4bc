package sockbench.client.output;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import sockbench.client.sweep.ClientInfo;
import sockbench.client.plan.Profile;
import sockbench.client.plan.Ramp;
import sockbench.client.plan.SweepPlan;

/**
 * {@code --list-profiles}: the profile table of {@link Profile} as one JSON document, so the bench
 * runner reads profiles from the client instead of keeping its own copy. Field names and units are
 * those of {@code parameters} in results/README.md.
 */
public final class ProfileListWriter {

    /** Identifies this document's shape; bump when a field changes meaning. */
    public static final String SCHEMA = "sockbench.profiles/1";

    /**
     * Optional CLI abilities a caller may test for: {@code level-start-rates} is
     * {@code --level-start-rates}, {@code adaptive-level-start} the per-profile
     * {@code next_level_start_fraction} (and {@code --no-adaptive-start}), {@code client-ceilings} is
     * {@code --client-ceilings} (a level ends at the client's measured ceiling, not at max_rate), {@code sessions}
     * the all-copies verdict, idle hold and paced connect ({@code --[no-]all-copies}, {@code --idle-hold-s},
     * {@code --connect-rate}, {@code --server-pids}).
     */
    public static final List<String> FEATURES = List.of("level-start-rates", "adaptive-level-start", "client-ceilings",
            "sessions");

    public void write(Writer out) throws IOException {
        try (JsonGenerator g = JsonResultWriter.FACTORY.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("schema", SCHEMA);
            g.writeStringField("client_version", ClientInfo.VERSION);
            g.writeArrayFieldStart("features");
            for (String f : FEATURES) {
                g.writeString(f);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("profiles");
            for (Profile p : Profile.values()) {
                profile(g, p);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.write('\n');
        out.flush();
    }

    private static void profile(JsonGenerator g, Profile profile) throws IOException {
        SweepPlan p = profile.plan();
        g.writeStartObject();
        g.writeStringField("name", profile.jsonName());
        g.writeStringField("description", profile.description());
        g.writeArrayFieldStart("levels");
        for (int n : p.levels()) {
            g.writeNumber(n);
        }
        g.writeEndArray();
        g.writeStringField("ramp", p.ramp().jsonName());
        if (p.ramp() == Ramp.GEOMETRIC) {
            g.writeNumberField("rate_factor", p.rateFactor());
        } else {
            g.writeNullField("rate_factor");
        }
        if (p.rateStepRule() == null) {
            g.writeNullField("rate_step");
        } else {
            g.writeStringField("rate_step", p.rateStepRule());
        }
        g.writeNumberField("start_rate", p.startRate());
        g.writeNumberField("max_rate", p.maxRate());
        g.writeNumberField("step_s", p.stepS());
        g.writeNumberField("settle_s", p.settleS());
        g.writeNumberField("warmup_s", p.warmupS());
        g.writeBooleanField("confirm", profile.confirm());
        g.writeNumberField("refine_steps", profile.refineSteps());
        if (p.nextLevelStartFraction() == null) {
            g.writeNullField("next_level_start_fraction");
        } else {
            g.writeNumberField("next_level_start_fraction", p.nextLevelStartFraction());
        }
        if (profile.laterRepetitionStartFraction() == null) {
            g.writeNullField("later_repetition_start_fraction");
        } else {
            g.writeNumberField("later_repetition_start_fraction", profile.laterRepetitionStartFraction());
        }
        g.writeBooleanField("all_copies", p.allCopies());
        g.writeNumberField("idle_hold_s", p.idleHoldS());
        g.writeNumberField("connect_rate_per_s", p.connectRatePerS());
        g.writeEndObject();
    }
}
