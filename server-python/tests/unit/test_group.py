"""The Group container (protocol/group.py): a set of connections whose
every change of membership moves its version, and nothing else does."""
from __future__ import annotations

import pytest

from sockbench_server.protocol.group import Group


def test_a_group_holds_its_members_like_a_set():
    a, b = object(), object()
    group = Group([a, b, a])
    assert len(group) == 2 and set(group) == {a, b}
    assert a in group and object() not in group
    group.discard(a)
    assert list(group) == [b] and a not in group


def test_members_are_walked_in_the_order_they_joined():
    conns = [object() for _ in range(50)]
    group = Group(conns)
    group.discard(conns[10])
    group.add(conns[10])
    assert list(group) == conns[:10] + conns[11:] + [conns[10]]


def test_only_a_change_of_membership_moves_the_version():
    a, b = object(), object()
    group = Group()
    for change in (lambda: group.add(a), lambda: group.add(b), lambda: group.discard(a),
                   lambda: group.remove(b), lambda: group.add(a), lambda: group.clear()):
        before = group.version
        change()
        assert group.version > before
    group.add(b)
    for no_change in (lambda: group.add(b), lambda: group.discard(a), lambda: list(group),
                      lambda: len(group), lambda: b in group):
        before = group.version
        no_change()
        assert group.version == before
    group.discard(b)
    before = group.version
    group.clear()  # already empty
    assert group.version == before


def test_remove_refuses_a_connection_that_is_not_a_member():
    a = object()
    group = Group([a])
    group.remove(a)
    with pytest.raises(KeyError):
        group.remove(a)
