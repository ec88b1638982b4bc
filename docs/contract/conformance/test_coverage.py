"""Every official case has its mirror, and every mirror is an official case."""
import inspect

import official_cases
import test_sockjs_protocol as mirror


def mirrored():
    found = set()
    for cls_name in dir(mirror):
        cls = getattr(mirror, cls_name)
        if inspect.isclass(cls) and cls.__module__ == mirror.__name__:
            for name in dir(cls):
                if name.startswith("test_"):
                    found.add((cls_name, name))
    return found


def test_all_68_official_cases_are_mirrored():
    official = official_cases.cases(official_cases.OFFICIAL)
    assert len(official) == 68
    assert len(set(official)) == 68
    missing = set(official) - mirrored()
    assert not missing


def test_no_mirror_without_an_official_case():
    known = set(official_cases.cases(official_cases.OFFICIAL)) | \
        set(official_cases.cases(official_cases.LATER))
    assert mirrored() == known
    assert len(known) == 72
