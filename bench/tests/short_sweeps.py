"""Client options that make a sessions-profile run short enough for a test. The end-to-end tests check
the runner's plumbing and the result's shape, never the figures, so the profile's 2 s points, x sqrt(5)
steps and 30 s hold (made for publishable numbers) only cost CI minutes there."""

#: Still climbs from 1 msg/s until the server saturates, so a fan-out saturation point is found: x4
#: steps, 1 s points, one bisection step, a 2 s idle hold.
SATURATING_SWEEP = "--idle-hold-s 2 --rate-factor 4 --step 1 --warmup 0.3 --settle 0.2 --refine-steps 1"

#: A few points between 50 and 200 msgs/s and a 1 s hold: for tests that need points, not a saturation.
PLUMBING_SWEEP = ("--idle-hold-s 1 --start-rate 50 --max-rate 200 --step 0.5 --warmup 0.2 --settle 0.2 "
                  "--refine-steps 0 --no-confirm")
