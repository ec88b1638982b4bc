package sockbench.client.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import sockbench.client.plan.Profile;

class ProfileListWriterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The contract of --list-profiles, shared with the runner (tests run in client-java/). */
    static final Path SCHEMA = Path.of("..", "docs", "contract", "list-profiles.schema.json");

    static Set<ValidationMessage> validate(JsonNode doc) {
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(SCHEMA.toAbsolutePath().normalize().toUri());
        return schema.validate(doc);
    }

    static JsonNode listing() throws Exception {
        StringWriter out = new StringWriter();
        new ProfileListWriter().write(out);
        return MAPPER.readTree(out.toString());
    }

    @Test
    void theListingConformsToTheContractSchema() throws Exception {
        Set<ValidationMessage> errors = validate(listing());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void theSchemaCatchesAProfileWithoutItsLaterRepetitionFraction() throws Exception {
        JsonNode doc = listing();
        ((ObjectNode) doc.get("profiles").get(0)).remove("later_repetition_start_fraction");
        assertFalse(validate(doc).isEmpty(), "a profile without later_repetition_start_fraction passed the schema");
    }

    @Test
    void everyProfileIsListedWithItsLaterRepetitionFraction() throws Exception {
        JsonNode profiles = listing().get("profiles");
        assertEquals(Profile.values().length, profiles.size());
        for (int i = 0; i < profiles.size(); i++) {
            Profile p = Profile.values()[i];
            assertEquals(p.jsonName(), profiles.get(i).get("name").asText());
            JsonNode later = profiles.get(i).get("later_repetition_start_fraction");
            if (p.laterRepetitionStartFraction() == null) {
                assertTrue(later.isNull(), p + ": every repetition from the start rate is written as null");
            } else {
                assertEquals(p.laterRepetitionStartFraction(), later.asDouble());
            }
        }
    }
}
