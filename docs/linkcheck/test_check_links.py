"""The docs checks: README.md stays a newcomer's page, and every relative link in the repository's
Markdown resolves to a file, and a #fragment to a heading (GitHub's ids). The fixtures under
fixtures/ are small repositories, one whose links all resolve and one broken on purpose."""

import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import check_links  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
FIXTURES = os.path.join(HERE, "fixtures")


def fixture_files(name):
    root = os.path.join(FIXTURES, name)
    return root, sorted(os.path.relpath(os.path.join(d, f), root)
                        for d, _, names in os.walk(root) for f in names if f.endswith(".md"))


def test_the_repository_readme_is_at_most_12_kb():
    assert check_links.readme_problem(REPO) is None


def test_every_relative_link_in_the_repository_markdown_resolves():
    files = check_links.markdown_files(REPO)
    assert "README.md" in files and "docs/methodology.md" in files
    broken = check_links.broken_links(REPO, files)
    assert broken == [], "\n".join(f"{s}:{n}: ({t}): {why}" for s, n, t, why in broken)


@pytest.mark.parametrize("heading, slug", [
    ("Methodology", "methodology"),
    ("A figure is the server's limit, or a floor", "a-figure-is-the-servers-limit-or-a-floor"),
    ("6. Scale-out: --workers and --broker", "6-scale-out---workers-and---broker"),
    ("Latency, honestly", "latency-honestly"),
    ("Fast vs naive (×2 ramp) — 2026", "fast-vs-naive-2-ramp--2026"),
    ("snake_case_name", "snake_case_name"),
    ("Überblick", "überblick"),
])
def test_heading_ids_follow_githubs_rule(heading, slug):
    assert check_links.github_slug(heading) == slug


def test_heading_text_drops_code_link_and_emphasis_markup():
    anchors = check_links.anchors_of("# The `READY` line\n## See [the page](x.md)\n### **Bold** _it_ snake_case\n")
    assert anchors == {"the-ready-line", "see-the-page", "bold-it-snake_case"}


def test_repeated_headings_are_numbered_and_fenced_hashes_are_not_headings():
    text = "# Notes\n\n```sh\n# a shell comment\n```\n\n## Notes\n## Notes\n"
    assert check_links.anchors_of(text) == {"notes", "notes-1", "notes-2"}


def test_links_in_code_are_not_links():
    text = "a [real](a.md) and `[code](b.md)`\n\n```\n[fenced](c.md)\n```\n[ref]: d.md\n"
    assert [target for _, target in check_links.links_of(text)] == ["a.md", "d.md"]


def test_a_fixture_whose_links_all_resolve_passes():
    root, files = fixture_files("good")
    assert files == ["README.md", os.path.join("docs", "topic.md")]
    assert check_links.broken_links(root, files) == []


def test_a_missing_file_a_missing_heading_and_an_unverifiable_fragment_fail():
    root, files = fixture_files("broken")
    broken = [(source, line, target) for source, line, target, _ in check_links.broken_links(root, files)]
    assert broken == [("README.md", 3, "docs/missing.md"),
                      ("README.md", 3, "other.md#no-such-heading"),
                      ("README.md", 4, "data.txt#section")]


def test_the_command_names_each_broken_link_and_exits_1(tmp_path):
    (tmp_path / "README.md").write_text("# Short\n\n[gone](gone.md) and [fine](README.md#short)\n")
    result = subprocess.run([sys.executable, os.path.join(HERE, "check_links.py"), str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stdout.strip() == "README.md:3: (gone.md): no such file: gone.md"


def test_a_readme_over_the_limit_fails_with_the_way_out(tmp_path):
    (tmp_path / "README.md").write_text("# Long\n\n" + "x" * check_links.README_LIMIT_BYTES)
    problem = check_links.readme_problem(str(tmp_path))
    assert problem is not None and "over the 12,000 limit" in problem and "docs/" in problem
    result = subprocess.run([sys.executable, os.path.join(HERE, "check_links.py"), str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "README.md is 12,008 bytes" in result.stdout


def test_a_command_line_typo_prints_usage_and_exits_2():
    result = subprocess.run([sys.executable, os.path.join(HERE, "check_links.py"), "--nope"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stderr.startswith("usage:")
