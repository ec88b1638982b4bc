"""The reference pages quote their tables from the result files, never by hand: each page's
saturation tables are exactly what bench/saturation_tables.py prints for its folder today, so a
changed file, floor rule or table format shows here until the page is regenerated
(`make saturation-tables DIR=<folder> RSS_LEVEL=<n>`, pasted over the page's tables)."""

import glob
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

import saturation_tables  # noqa: E402
from results_io import load_result  # noqa: E402
from sockbench_contract.registry import load as load_registry  # noqa: E402

#: (page, result folder, RSS_LEVEL): the pages whose tables are generated.
GENERATED_PAGES = [
    ("docs/reference-runtimes.md", "results/reference-runtimes", 1000),
]


@pytest.mark.parametrize("page,folder,rss_level", GENERATED_PAGES)
def test_a_reference_page_holds_the_tables_its_folder_prints_today(page, folder, rss_level):
    docs = [load_result(p) for p in sorted(glob.glob(os.path.join(ROOT, folder, "*.json")))]
    assert docs, f"no result files in {folder}"
    printed = saturation_tables.tables(docs, load_registry(), rss_level).strip()
    with open(os.path.join(ROOT, page), encoding="utf-8") as fh:
        text = fh.read()
    assert printed in text, (
        f"{page} does not hold the tables of {folder}: regenerate them with "
        f"`make saturation-tables DIR={folder} RSS_LEVEL={rss_level}`")
