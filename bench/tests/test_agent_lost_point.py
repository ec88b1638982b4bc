"""A point during which a client agent was lost (`state` `agent_lost`, results/README.md) measured part of
the sessions or none: results/schema.json v5 accepts it, and no reader that looks for ok points (make
compare, the floor rule's saturation point, churn's saturation point) takes it for one. The lost point is
hand-built from the 100,000-session PyPy run whose agent was lost before its confirm point."""

import copy

from churn_text import saturation_point
from compare import common_ok_rate
from floors import saturation_server_cpu
from results_io import schema_errors
from sessions_docs import client_doc

NULL_LATENCY = {"count": 0, "mean": None, "stddev": None, "min": None, "p50": None, "p90": None, "p99": None,
                "p999": None, "max": None}


def lost_point(target_rate, order, **figures):
    """A point that measured nothing because its agent had been lost, or (with `figures`) the other agents' part."""
    point = {"target_rate": target_rate, "duration_s": 2.0, "sent": 0, "sent_per_s": 0.0, "received": 0,
             "received_per_s": 0.0, "expected_received": 0, "lost": 0, "connection_errors": 0,
             "rtt_ms": NULL_LATENCY, "rtt_uncorrected_ms": NULL_LATENCY, "client_cpu_pct": 0.0,
             "server_cpu_pct": None, "server_rss_bytes": None, "state": "agent_lost", "client_bound": False,
             "client_bound_reasons": [], "phase": "confirm", "order": order, "delivered_pct": None,
             "rtt_first_half_mean_ms": None, "rtt_second_half_mean_ms": None, "backlog_growing": False,
             "ok_strict": False, "steal_pct": None, "fanout_ms": NULL_LATENCY,
             "completion_ms": {"count": 0, "incomplete": 0, "p50": None, "p90": None, "p99": None, "max": None},
             "agent_lost": "vm:10042"}
    point.update(figures)
    return point


def test_schema_v5_accepts_an_agent_lost_point_and_still_refuses_an_unknown_state():
    doc = client_doc([25])
    doc["schema"] = "sockbench.result/5"
    level = doc["levels"][0]
    level["points"].append(lost_point(level["points"][0]["target_rate"], len(level["points"])))
    level["end_reason"] = "agent_lost"
    assert schema_errors(doc) == []
    bad = copy.deepcopy(doc)
    bad["levels"][0]["points"][-1]["state"] = "lost"
    assert schema_errors(bad) != []


def test_compare_never_pairs_an_agent_lost_point_as_ok():
    a = {"points": [{"target_rate": 1.0, "state": "overloaded"}, lost_point(1.0, 1)]}
    b = {"points": [{"target_rate": 1.0, "state": "ok"}]}
    assert common_ok_rate(a, b) is None
    assert common_ok_rate(b, a) is None


def test_the_floor_rule_never_reads_the_cpu_of_an_agent_lost_point():
    # A v1-style saturation (no CPU of its own) whose received/s the lost point shares: its CPU is not the figure's.
    level = {"saturation": {"target_rate": 1.0, "received_per_s": 40000.0},
             "points": [lost_point(1.0, 0, received_per_s=40000.0, server_cpu_pct=99.0)]}
    assert saturation_server_cpu(level) is None


def test_churns_saturation_point_is_never_an_agent_lost_point():
    level = {"fanout_saturation": {"copies_per_s": 40000.0, "target_rate": 1.0, "p99_ms": 90.0},
             "points": [lost_point(1.0, 0, received_per_s=40000.0)]}
    assert saturation_point(level) is None
