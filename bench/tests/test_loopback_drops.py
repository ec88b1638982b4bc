"""Packets dropped at the kernel's backlog queue: counted from /proc/net/softnet_stat, warned about in the
run and, for runs above one process's sessions, before it when the queue is short."""

import loopback_drops
from loopback_drops import RECOMMENDED_BACKLOG, drop_warning, dropped_between, plan_warning, read_dropped

# Two CPUs' lines as the kernel prints them: hexadecimal, the second column the drops.
SOFTNET = ("33e9524a 003e14ce 000003d3 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
           "1dff4afc 00007f36 00000411 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n")


def test_the_drops_of_every_cpu_are_added_up(tmp_path):
    path = tmp_path / "softnet_stat"
    path.write_text(SOFTNET)
    assert read_dropped(str(path)) == 0x003e14ce + 0x7f36


def test_an_unreadable_or_garbled_file_is_unknown_not_zero(tmp_path):
    assert read_dropped(str(tmp_path / "missing")) is None
    garbled = tmp_path / "softnet_stat"
    garbled.write_text("not hex at all\n")
    assert read_dropped(str(garbled)) is None
    assert dropped_between(None, 5) is None and dropped_between(5, None) is None
    assert dropped_between(10, 25) == 15


def test_a_run_with_drops_is_warned_with_the_fix_and_one_without_is_not():
    assert drop_warning(0, 1000) is None and drop_warning(None, 1000) is None
    text = drop_warning(500_000, 1000)
    assert "500,000 packets" in text and "netdev_max_backlog = 1,000" in text
    assert loopback_drops.RAISE_BACKLOG in text


def test_a_short_queue_is_warned_before_the_run_and_a_long_or_unknown_one_is_not():
    assert "netdev_max_backlog is 1,000 packets" in plan_warning(1000)
    assert plan_warning(RECOMMENDED_BACKLOG) is None
    assert plan_warning(None) is None


def test_the_machine_counter_is_readable_here():
    # The runner records it for every repetition: this machine must expose it.
    assert read_dropped() is not None and loopback_drops.read_backlog_limit() is not None
