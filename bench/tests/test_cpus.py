import pytest

from cpus import default_client_cpus, format_cpu_list, parse_cpu_list


@pytest.mark.parametrize("text,expected", [
    ("0", [0]), ("1-3", [1, 2, 3]), ("0,2-3", [0, 2, 3]), ("3,1,1", [1, 3]), (" 0 , 1 ", [0, 1]),
])
def test_parse_cpu_list(text, expected):
    assert parse_cpu_list(text) == expected


@pytest.mark.parametrize("text", ["", "a", "3-1", "1-", "-2", "0;1"])
def test_parse_cpu_list_rejects(text):
    with pytest.raises(ValueError):
        parse_cpu_list(text)


def test_format_round_trip():
    assert format_cpu_list([3, 0, 1]) == "0,1,3"
    assert parse_cpu_list(format_cpu_list([5, 2])) == [2, 5]


def test_client_gets_every_core_but_the_servers():
    assert default_client_cpus([0], [0, 1, 2, 3]) == [1, 2, 3]
    assert default_client_cpus([1], [0, 1]) == [0]


def test_one_core_machine_shares():
    assert default_client_cpus([0], [0]) == [0]
