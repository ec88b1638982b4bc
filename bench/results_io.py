"""Reading result files (results/README.md, schema sockbench.result/1) for the bench tools."""

import json
import os

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "results", "schema.json")


def load_result(path):
    """Parse one result file; ValueError naming the file if it is not a sockbench.result/1 document."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read JSON: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("schema") != "sockbench.result/1":
        raise ValueError(f"{path}: not a sockbench.result/1 file")
    return doc


def schema_errors(doc):
    """Every violation of results/schema.json, as readable strings (empty list = valid).

    Needs the `jsonschema` package (installed in .venv-bench by `make setup`).
    """
    import jsonschema  # imported here so compare.py works without it

    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
            for e in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]


def flow_problems(doc):
    """Points where no messages flowed (nothing sent or nothing received): a broken run, not a slow one."""
    problems = []
    if not doc["levels"]:
        problems.append("no levels in the result")
    for level in doc["levels"]:
        n = level["concurrency"]
        if not level["points"]:
            problems.append(f"level {n}: no points")
        for point in level["points"]:
            if point["sent"] == 0 or point["received"] == 0:
                problems.append(f"level {n} rate {point['target_rate']:g}: sent {point['sent']}, "
                                f"received {point['received']}")
    return problems
