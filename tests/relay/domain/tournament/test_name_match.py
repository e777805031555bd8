"""Names that probably belong to one person: the key's properties, and a table of pairs that
are (with the reasons in words) and are not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.tournament.name_match import (
    Entrant,
    clash_reasons,
    find_clashes,
    fold,
    fuller_name,
    match,
    name_key,
    standard_name,
    strip_accents,
)

#: Letters names are written in here: plain, accented, and the ones with a table entry.
LETTERS = "abcdefghijklmnopqrstuvwxyzáàâäãåçéèêëíìîïñóòôöõúùûüýÿčďěňřšťžąęłńśźżőűøæßðþ"
word = st.text(alphabet=LETTERS, min_size=1, max_size=10)
words = st.lists(word, min_size=1, max_size=3)


def written(family: list[str], given_names: list[str]) -> str:
    return f"{' '.join(family)}, {' '.join(given_names)}"


@given(st.text(max_size=40))
def test_a_key_is_its_own_key(name):
    assert name_key(name_key(name)) == name_key(name)


@given(st.text(alphabet="aeoubcß æœøü", max_size=20))
def test_a_key_is_its_own_key_where_vowels_meet(name):
    assert name_key(name_key(name)) == name_key(name)


@given(words, words)
def test_the_key_ignores_accents(family, given_names):
    name = written(family, given_names)
    assert name_key(strip_accents(name)) == name_key(name)


@given(words, words)
def test_the_key_ignores_case(family, given_names):
    name = written(family, given_names)
    assert name_key(name.upper()) == name_key(name) == name_key(name.title())


@given(words, words)
def test_the_key_ignores_the_order_of_family_and_given_names(family, given_names):
    as_listed = written(family, given_names)
    as_said = f"{' '.join(given_names)} {' '.join(family)}"
    assert name_key(as_listed) == name_key(as_said)


@given(words, words)
def test_the_key_ignores_punctuation_and_spacing(family, given_names):
    name = written(family, given_names)
    messy = "  " + name.replace(" ", " . ").replace(",", " ,, ") + ". "
    assert name_key(messy) == name_key(name)


@given(words, words)
def test_a_name_matches_itself_in_any_case_and_without_accents(family, given_names):
    name = written(family, given_names)
    assert match(name, name) == ("the same name",)
    assert match(name, strip_accents(name).upper()) is not None


@given(words, words)
def test_a_name_matches_the_same_name_written_given_name_first(family, given_names):
    assert match(written(family, given_names), f"{' '.join(given_names)} {' '.join(family)}")


@pytest.mark.parametrize(
    ("word", "folded"),
    [
        ("Müller", "muller"),
        ("Mueller", "muller"),
        ("Muller", "muller"),
        ("Strauß", "strauss"),
        ("Gundersen-Ø", "gundersen" + "o"),
        ("Łódź", "lodz"),
        ("O'Neill", "oneill"),
        ("Aee", "a"),  # made one until none is left: a folded word folds to itself
        ("Y\u0131ld\u0131z", "yildiz"),  # dotless i,
    ],
)
def test_fold(word, folded):
    assert fold(word) == folded


def test_the_umlaut_written_out_and_dropped_folds_alike():
    assert name_key("Müller, Jörg") == name_key("Mueller, Joerg") == name_key("Muller, Jorg")


MATCHES = [
    (
        "Kramnik, V",
        "Vladimir Kramnik",
        ["'Vladimir Kramnik' is written given name first", "initial V matches Vladimir"],
    ),
    ("Kramnik, V", "Kramnik, Vladimir", ["initial V matches Vladimir"]),
    ("Kramnik, V.", "Kramnik, Vladimir", ["initial V matches Vladimir"]),
    ("Nepomniachtchi, Ian", "Nepomniachtchi, I.", ["initial I matches Ian"]),
    ("Müller, Jörg", "Muller, Jorg", ["same name with accents removed"]),
    ("Müller, Jörg", "Mueller, Joerg", ["same name with ö written oe, ü written ue"]),
    ("Gundersen, Søren", "Gundersen, Soren", ["same name with accents removed"]),
    ("Strauß, Anna", "Strauss, Anna", ["same name with accents removed"]),
    ("Kramnik, Vladimir", "Vladimir, Kramnik", ["given and family names swapped"]),
    (
        "Kramnik, Vladimir",
        "Kramnik Vladimir",
        ["'Kramnik Vladimir' is written family name first, without a comma"],
    ),
    ("KRAMNIK, Vladimir", "Kramnik,Vladimir", ["same name, case, spaces or punctuation aside"]),
    ("Kramnik, Vladimir", "Kramnik, Vladimir", ["the same name"]),
    ("Kramnik", "Kramnik, Vladimir", ["no given name in 'Kramnik'"]),
    (
        "Kramnik, Vladimir Borisovich",
        "Kramnik, V",
        ["initial V matches Vladimir", "given name Borisovich only in one"],
    ),
    (
        "Dupont, Jean-Pierre",
        "Jean Pierre Dupont",
        ["'Jean Pierre Dupont' is written given name first"],
    ),
]


@pytest.mark.parametrize(("first", "second", "reasons"), MATCHES)
def test_names_of_one_person_match_with_their_reasons(first, second, reasons):
    assert match(first, second) == tuple(reasons)
    assert match(second, first) is not None


DIFFERENT = [
    ("Kramnik, V", "Kramnik, Alexander"),  # the initial is another name's
    ("Kramnik, Vladimir", "Kramnik, Alexander"),  # same family, other given name
    ("Kramnik, Vladimir", "Kramnik, Valentin"),  # same initial, other given name
    ("Kramnik, Vladimir", "Kramnikov, Vladimir"),
    ("Carlsen, Magnus", "Kramnik, Vladimir"),
    ("Wang, Hao", "Wang, Yue"),
    ("Wang Hao", "Wang, Yue"),
    ("Polgar, Judit", "Polgar, Zsuzsa"),
    ("Polgar, J", "Polgar, Zsuzsa"),
]


@pytest.mark.parametrize(("first", "second"), DIFFERENT)
def test_different_people_do_not_match(first, second):
    assert match(first, second) is None
    assert match(second, first) is None


def test_a_fide_id_decides():
    vladimir = Entrant(1, "Kramnik, Vladimir", 4101588)
    same_id = Entrant(2, "Kramnik, V", 4101588)
    other_id = Entrant(3, "Kramnik, V", 4100018)
    no_id = Entrant(4, "Kramnik, V")
    renamed = Entrant(5, "Somebody, Else", 4101588)
    assert clash_reasons(vladimir, same_id) == (
        "same FIDE id 4101588",
        "initial V matches Vladimir",
    )
    assert clash_reasons(vladimir, other_id) is None
    assert clash_reasons(vladimir, no_id) == ("initial V matches Vladimir",)
    assert clash_reasons(vladimir, renamed) == ("same FIDE id 4101588",)


def test_a_tournament_s_clashes_are_the_pairs_of_one_person():
    players = [
        Entrant(1, "Kramnik, Vladimir"),
        Entrant(2, "Carlsen, Magnus"),
        Entrant(3, "Kramnik, V"),
        Entrant(4, "Kramnik, Alexander"),
        Entrant(5, "Müller, Jörg"),
        Entrant(6, "Mueller, Joerg"),
        Entrant(7, "Nepomniachtchi, Ian", 24119806),
        Entrant(8, "Nepomniachtchi, I.", 4168119),
        Entrant(9, "Someone, Else", 2016192),
        Entrant(10, "Carlsen, Magnus Øen", 2016192),
    ]
    found = [(c.first.id, c.second.id) for c in find_clashes(players)]
    assert found == [(1, 3), (2, 10), (5, 6), (9, 10)]


def test_a_list_of_shared_family_and_given_names_has_no_clash():
    families = ["Wang", "Zhang", "Liu", "Chen", "Müller", "Kramnik"]
    givens = ["Hao", "Yue", "Jun", "Lei", "Tao", "Qiang", "Vladimir", "Alexander", "Jörg"]
    players = [
        Entrant(n, f"{family}, {given}")
        for n, (family, given) in enumerate(((f, g) for f in families for g in givens), start=1)
    ]
    assert len(players) == 54
    assert find_clashes(players) == []
    # One of them entered again as "Given Family": found, and only that pair.
    again = Entrant(99, "Lei Chen")
    assert [(c.first.name, c.second.name) for c in find_clashes([*players, again])] == [
        ("Chen, Lei", "Lei Chen")
    ]


@pytest.mark.parametrize(
    ("name", "standard"),
    [
        ("Vladimir Kramnik", "Kramnik, Vladimir"),
        ("  Kramnik ,Vladimir ", "Kramnik, Vladimir"),
        ("Kramnik,  V.", "Kramnik, V."),
        ("Kramnik", "Kramnik"),
        ("van der Berg, Jan", "van der Berg, Jan"),
    ],
)
def test_standard_names_are_family_comma_given(name, standard):
    assert standard_name(name) == standard


def test_the_fuller_name_is_chosen():
    assert fuller_name("Kramnik, V", "Vladimir Kramnik") == "Kramnik, Vladimir"
    assert fuller_name("Mueller, Joerg", "Müller, Jörg") == "Müller, Jörg"
    assert fuller_name("Nepomniachtchi, I.", "Nepomniachtchi, Ian") == "Nepomniachtchi, Ian"
