"""gettext files for rummykit's sentences: write the ``.pot``, merge it into ``.po`` files,
compile ``.mo`` files — with the standard library only.

English is the source: every template of :data:`rummykit.messages.TEMPLATES` is one entry,
keyed by its code as ``msgctxt``. The count pairs ``count_X_one`` / ``count_X_other`` are one
plural entry ``msgctxt "count_X"`` with ``msgid`` / ``msgid_plural``; the catalogue's
``Plural-Forms`` chooses the form at run time.

>>> pot = template_entries({"run_gap": "{cards} skips {missing}.",
...                         "count_cards_one": "{n} card", "count_cards_other": "{n} cards"})
>>> [(e.context, e.msgid, e.plural) for e in pot]
[('run_gap', '{cards} skips {missing}.', None), ('count_cards', '{n} card', '{n} cards')]
>>> po = parse_po(write_po(pot))
>>> po[2].context, po[2].strings  # po[0] is the header
('count_cards', ['', ''])

This module is also what ``make pot``, ``make po-update`` and the build hook run::

    python -m rummykit.pofiles pot          # rummykit/locale/rummykit.pot from the templates
    python -m rummykit.pofiles update       # merge it into every rummykit/locale/*/…/rummykit.po
    python -m rummykit.pofiles init LANG    # start a new language's .po from the .pot
    python -m rummykit.pofiles compile      # every .po into the .mo beside it

It imports nothing from rummykit at module level, so the build hook can load it from the
source tree before rummykit is installed.
"""

from __future__ import annotations

import re
import string
import struct
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "LOCALE_DIR",
    "PLURAL_FORMS",
    "Entry",
    "compile_mo",
    "merge",
    "parse_po",
    "placeholders",
    "template_entries",
    "write_po",
]

LOCALE_DIR = Path(__file__).with_name("locale")
"""Where the catalogues live: ``locale/rummykit.pot`` and ``locale/<lang>/LC_MESSAGES/``."""

DOMAIN = "rummykit"

PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    # Brazilian Portuguese: 0 and 1 are singular ("0 carta", "1 carta", "2 cartas")
    "pt": "nplurals=2; plural=(n > 1);",
    "fi": "nplurals=2; plural=(n != 1);",
}
"""The ``Plural-Forms`` header of each language rummykit knows."""

_PLURAL_SUFFIXES = ("_one", "_other")


@dataclass
class Entry:
    """One catalogue entry: its code (``msgctxt``), English text, and one or more translations.

    ``strings`` holds the ``msgstr`` (one item) or ``msgstr[0..]`` (plural entries).
    """

    context: str
    msgid: str
    plural: str | None = None
    strings: list[str] = field(default_factory=lambda: [""])
    flags: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    previous: str | None = None

    @property
    def fuzzy(self) -> bool:
        """True when a translator should look at this entry again (its English changed)."""
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        """True when every form is filled in and the entry is not fuzzy."""
        return not self.fuzzy and all(self.strings)


def placeholders(text: str) -> set[str]:
    """The names of the ``{placeholders}`` of a template (format specs left out).

    >>> sorted(placeholders("{cards} has {count:cards}, {{not one}}, {card.rank}"))
    ['card', 'cards', 'count']
    """
    import string

    names = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name is not None:
            names.add(re.split(r"[.\[]", name, maxsplit=1)[0])
    return names


def _specs(text: str) -> set[tuple[str, str]]:
    """Each placeholder of a template with its format spec: ``{card:m=o|f=a}`` gives
    ``("card", "m=o|f=a")``."""
    return {(name, spec or "") for _, name, spec, _ in string.Formatter().parse(text) if name}


def format_flag(entry: Entry) -> str:
    """``python-brace-format`` when every translation writes its placeholders as the English
    does, so GNU ``msgfmt -c`` and editors such as Poedit can check them; otherwise (a
    translation uses rummykit's grammar forms, ``{card:m=o|f=a}`` or ``{x:gen}``, which they
    don't know) ``no-python-brace-format``: rummykit's own tests check those entries.

    >>> format_flag(Entry("a", "Take {card}.", strings=["Pegue {card}."]))
    'python-brace-format'
    >>> format_flag(Entry("a", "Take {card}.", strings=["Pegue {card:m=o|f=a} {card}."]))
    'no-python-brace-format'
    """
    english = _specs(entry.msgid) | (_specs(entry.plural) if entry.plural else set())
    try:
        same = all(_specs(text) <= english for text in entry.strings if text)
    except ValueError:  # not a brace template at all: let msgfmt say so
        same = True
    return "python-brace-format" if same else "no-python-brace-format"


def template_entries(templates: Mapping[str, str]) -> list[Entry]:
    """The ``.pot`` entries of a template table, in its order; count pairs joined as plurals."""
    entries: list[Entry] = []
    for code, text in templates.items():
        if code.endswith(_PLURAL_SUFFIXES):
            base = code.rsplit("_", 1)[0]
            one, other = f"{base}_one", f"{base}_other"
            if one in templates and other in templates:
                if code == one:
                    entries.append(
                        Entry(
                            base,
                            templates[one],
                            templates[other],
                            ["", ""],
                            ["python-brace-format"],
                        )
                    )
                continue
        entries.append(Entry(code, text, flags=["python-brace-format"]))
    return entries


# --- writing -------------------------------------------------------------------------------


def _quote(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r")
    return body.replace("\n", "\\n")


def _field(keyword: str, text: str, prefix: str = "") -> list[str]:
    if "\n" in text.rstrip("\n"):
        lines = [f'{prefix}{keyword} ""']
        parts = text.split("\n")
        for i, part in enumerate(parts):
            piece = part + ("\n" if i < len(parts) - 1 else "")
            if piece:
                lines.append(f'{prefix}"{_quote(piece)}"')
        return lines
    return [f'{prefix}{keyword} "{_quote(text)}"']


def header(language: str | None) -> str:
    """The header entry's text (``msgid ""``) for a language, or for the ``.pot``."""
    plural = PLURAL_FORMS.get(language or "", "nplurals=INTEGER; plural=EXPRESSION;")
    return (
        f"Project-Id-Version: {DOMAIN}\n"
        "Report-Msgid-Bugs-To: \n"
        "PO-Revision-Date: \n"
        "Last-Translator: \n"
        "Language-Team: \n"
        f"Language: {language or ''}\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: 8bit\n"
        f"Plural-Forms: {plural}\n"
    )


def write_po(entries: Iterable[Entry], head: str | None = None, title: str = "") -> str:
    """The text of a ``.po`` (or ``.pot``) file holding these entries after a header."""
    out = [f"# {title or 'rummykit: every sentence, keyed by its code (msgctxt).'}", "#"]
    out += ['msgid ""', 'msgstr ""']
    out += [f'"{_quote(line)}\\n"' for line in (head or header(None)).splitlines()]
    out.append("")
    for e in entries:
        out += [f"#. {c}" for c in e.comments]
        if e.flags:
            out.append("#, " + ", ".join(e.flags))
        if e.previous is not None:
            out += _field("msgid", e.previous, "#| ")
        out += _field("msgctxt", e.context)
        out += _field("msgid", e.msgid)
        if e.plural is None:
            out += _field("msgstr", e.strings[0])
        else:
            out += _field("msgid_plural", e.plural)
            for i, s in enumerate(e.strings):
                out += _field(f"msgstr[{i}]", s)
        out.append("")
    return "\n".join(out)


# --- reading -------------------------------------------------------------------------------

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _unquote(token: str, where: str) -> str:
    token = token.strip()
    if len(token) < 2 or not (token.startswith('"') and token.endswith('"')):
        raise ValueError(f"{where}: expected a quoted string, found {token!r}")
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), token[1:-1])


class PoError(ValueError):
    """A ``.po`` file could not be read."""


def parse_po(text: str, name: str = "<po>") -> list[Entry]:
    """The entries of a ``.po`` file, header (``msgid ""``) included as the first entry
    with context ``""`` when present. Obsolete entries (``#~``) are left out."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    flags: list[str] = []
    comments: list[str] = []
    previous: list[str] = []
    current: str | None = None

    def finish() -> None:
        nonlocal fields, flags, comments, previous, current
        if "msgid" in fields:
            plural = fields.get("msgid_plural")
            if plural is None:
                strings = [fields.get("msgstr", "")]
            else:
                keys = sorted(
                    (k for k in fields if k.startswith("msgstr[")),
                    key=lambda k: int(k[7:-1]),
                )
                strings = [fields[k] for k in keys] or [""]
            entries.append(
                Entry(
                    fields.get("msgctxt", ""),
                    fields["msgid"],
                    plural,
                    strings,
                    flags,
                    comments,
                    "".join(previous) if previous else None,
                )
            )
        fields, flags, comments, previous, current = {}, [], [], [], None

    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{name}, line {number}"
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#"):
            if "msgid" in fields:
                finish()
            if line.startswith("#,"):
                flags += [f.strip() for f in line[2:].split(",") if f.strip()]
            elif line.startswith("#."):
                comments.append(line[2:].strip())
            elif line.startswith("#| msgid "):
                previous.append(_unquote(line[len("#| msgid ") :], where))
            elif line.startswith('#| "'):
                previous.append(_unquote(line[3:], where))
            continue
        if line.startswith('"'):
            if current is None:
                raise PoError(f"{where}: a string continues no keyword")
            fields[current] += _unquote(line, where)
            continue
        keyword, _, rest = line.partition(" ")
        if not re.fullmatch(r"msgctxt|msgid|msgid_plural|msgstr|msgstr\[\d+\]", keyword):
            raise PoError(f"{where}: '{keyword}' is not a .po keyword")
        if keyword in ("msgctxt", "msgid") and (
            any(k.startswith("msgstr") for k in fields) or "msgid" in fields
        ):
            finish()
        fields[keyword] = _unquote(rest, where)
        current = keyword
    finish()
    return entries


def read_po(path: Path) -> tuple[str, list[Entry]]:
    """The header text and the entries of a ``.po`` file."""
    return read_po_text(path.read_text(encoding="utf-8"), str(path))


def read_po_text(text: str, name: str = "<po>") -> tuple[str, list[Entry]]:
    """The header text and the entries of the text of a ``.po`` file."""
    entries = parse_po(text, name)
    if entries and entries[0].context == "" and entries[0].msgid == "":
        return entries[0].strings[0], entries[1:]
    return header(None), entries


# --- merging -------------------------------------------------------------------------------


def merge(template: Sequence[Entry], old: Iterable[Entry]) -> list[Entry]:
    """A catalogue with the ``.pot``'s entries in its order, translations kept by code.

    An entry whose English changed keeps its old translation, marked ``fuzzy`` with the old
    English as ``#| msgid``; a new entry has empty translations; entries no longer in the
    ``.pot`` are dropped (git keeps their history).

    >>> pot = [Entry("a", "Hello {name}."), Entry("b", "Bye.")]
    >>> po = [Entry("a", "Hi {name}.", strings=["Olá {name}."]), Entry("c", "Gone.", strings=["x"])]
    >>> [(e.context, e.strings, e.flags, e.previous) for e in merge(pot, po)]
    [('a', ['Olá {name}.'], ['fuzzy'], 'Hi {name}.'), ('b', [''], [], None)]
    """
    known = {e.context: e for e in old}
    merged = []
    for t in template:
        e = known.get(t.context)
        flags = [f for f in t.flags if f != "fuzzy"]
        if e is not None and "python-brace-format" in flags:
            flags[flags.index("python-brace-format")] = format_flag(e)
        if e is None:
            n = len(t.strings)
            merged.append(Entry(t.context, t.msgid, t.plural, [""] * n, flags, list(t.comments)))
            continue
        strings = list(e.strings)
        if t.plural is not None and len(strings) < 2:
            strings = (strings + [""] * 2)[:2]
        if t.plural is None:
            strings = strings[:1]
        changed = (e.msgid, e.plural) != (t.msgid, t.plural)
        fuzzy = e.fuzzy or (changed and any(strings))
        previous = e.previous if e.fuzzy and not changed else (e.msgid if fuzzy else None)
        merged.append(
            Entry(
                t.context,
                t.msgid,
                t.plural,
                strings,
                flags + (["fuzzy"] if fuzzy else []),
                list(t.comments),
                previous,
            )
        )
    return merged


# --- compiling -----------------------------------------------------------------------------


def compile_mo(head: str, entries: Iterable[Entry]) -> bytes:
    """The bytes of a ``.mo`` file (GNU format, little-endian) for the translated entries;
    fuzzy and untranslated entries are left out, so English stands in for them."""
    table: dict[bytes, bytes] = {b"": head.encode()}
    for e in entries:
        if not e.translated:
            continue
        key = f"{e.context}\x04{e.msgid}" if e.context else e.msgid
        if e.plural is not None:
            key += f"\x00{e.plural}"
        table[key.encode()] = "\x00".join(e.strings).encode()
    keys = sorted(table)
    ids = b""
    strs = b""
    offsets = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(table[k])))
        ids += k + b"\x00"
        strs += table[k] + b"\x00"
    n = len(keys)
    start_ids = 7 * 4
    start_strs = start_ids + n * 8
    data_ids = start_strs + n * 8
    data_strs = data_ids + len(ids)
    out = struct.pack("<Iiiiiii", 0x950412DE, 0, n, start_ids, start_strs, 0, 0)
    for id_off, id_len, _, _ in offsets:
        out += struct.pack("<ii", id_len, data_ids + id_off)
    for _, _, s_off, s_len in offsets:
        out += struct.pack("<ii", s_len, data_strs + s_off)
    return out + ids + strs


# --- the pseudo-locale ---------------------------------------------------------------------

_ACCENTS = str.maketrans("aeiouyAEIOUY", "áéíóúýÁÉÍÓÚÝ")
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


def pseudo(text: str) -> str:
    """The pseudo-locale's "translation": every vowel accented, placeholders kept, wrapped.

    >>> pseudo("{cards} skips {missing:gen}.")
    '⟦{cards} skíps {missing:gen}.⟧'
    """
    import string

    out = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        out.append(literal.replace("{", "{{").replace("}", "}}").translate(_ACCENTS))
        if name is not None:
            out.append(
                "{"
                + name
                + (f"!{conversion}" if conversion else "")
                + (f":{spec}" if spec else "")
                + "}"
            )
    return f"{PSEUDO_OPEN}{''.join(out)}{PSEUDO_CLOSE}"


_NOT_SENTENCES = ("rank_gender",)


def pseudo_translations(entries: Iterable[Entry] | None = None) -> object:
    """A ``gettext`` translations object for the pseudo-locale, made from the ``.pot``'s
    entries (default: the templates as they are now) — no file is written.

    >>> from rummykit import language
    >>> language.register("xx", pseudo_translations())
    >>> from rummykit.messages import render
    >>> render("run_gap", cards="5♥ 6♥ 8♥", missing=render("the_card", card="7♥"), language="xx")
    '⟦5♥ 6♥ 8♥ skíps ⟦thé 7♥⟧: thé cárds óf á rún fóllów óné ánóthér.⟧'
    >>> language.register("xx", None)
    """
    import gettext
    import io

    translated = []
    for e in pot_entries() if entries is None else entries:
        if e.context in _NOT_SENTENCES:
            strings = [e.msgid]
        elif e.plural is None:
            strings = [pseudo(e.msgid)]
        else:
            strings = [pseudo(e.msgid), pseudo(e.plural)]
        translated.append(Entry(e.context, e.msgid, e.plural, strings))
    data = compile_mo(header("en").replace("Language: en", "Language: xx"), translated)
    return gettext.GNUTranslations(io.BytesIO(data))


# --- the commands make runs ----------------------------------------------------------------


def _section_comments(source: str) -> dict[str, str]:
    """The ``# --- section`` heading above each template code in messages.py."""
    sections: dict[str, str] = {}
    heading = ""
    for line in source.splitlines():
        stripped = line.strip()
        m = re.match(r"#\s*---\s*(.*?)\s*-*\s*$", stripped)
        if m:
            heading = m.group(1)
            continue
        m = re.match(r'"([a-z0-9_]+)":', stripped)
        if m and heading:
            sections.setdefault(m.group(1), heading)
    return sections


def pot_entries() -> list[Entry]:
    """The entries of rummykit's ``.pot``: every English template, with its section."""
    from rummykit import messages

    sections = _section_comments(Path(messages.__file__).read_text(encoding="utf-8"))
    entries = template_entries(messages.TEMPLATES)
    for e in entries:
        code = e.context if e.plural is None else f"{e.context}_one"
        note = sections.get(code)
        names = sorted(placeholders(e.msgid) | placeholders(e.plural or ""))
        if note:
            e.comments.append(note)
        if e.context in messages.NOTES:
            e.comments.append(messages.NOTES[e.context])
        if names:
            e.comments.append("placeholders: " + ", ".join("{" + n + "}" for n in names))
    return entries


def po_paths(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Every language's ``.po`` under ``locale_dir``."""
    return sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def write_pot(locale_dir: Path = LOCALE_DIR) -> Path:
    """Write ``rummykit.pot`` from the English templates."""
    path = locale_dir / f"{DOMAIN}.pot"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(write_po(pot_entries()), encoding="utf-8")
    return path


def _po_title(language: str) -> str:
    return f"rummykit in '{language}': edit the msgstr lines; make po-update merges new English in."


def update(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Merge the ``.pot`` into every ``.po`` under ``locale_dir``; the paths written."""
    _, template = read_po(locale_dir / f"{DOMAIN}.pot")
    written = []
    for path in po_paths(locale_dir):
        head, old = read_po(path)
        language = path.parent.parent.name
        path.write_text(write_po(merge(template, old), head, _po_title(language)), "utf-8")
        written.append(path)
    return written


def init(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """Start ``<language>/LC_MESSAGES/rummykit.po`` from the ``.pot`` (refused if it exists)."""
    path = locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        raise FileExistsError(f"{path} exists already: run make po-update to refresh it")
    _, template = read_po(locale_dir / f"{DOMAIN}.pot")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(write_po(merge(template, []), header(language), _po_title(language)), "utf-8")
    return path


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every ``.po`` under ``locale_dir`` into the ``.mo`` beside it."""
    written = []
    for path in po_paths(locale_dir):
        head, entries = read_po(path)
        mo = path.with_suffix(".mo")
        data = compile_mo(head, entries)
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
        written.append(mo)
    return written


def main(args: Sequence[str]) -> int:
    """``python -m rummykit.pofiles pot|update|init LANG|compile``: ``args`` are the words
    after the module's name (read from the command line only where the module is run)."""
    command = args[0] if args else ""
    if command == "pot":
        print(write_pot())
    elif command == "update":
        for path in update():
            print(path)
    elif command == "init" and len(args) == 2:
        print(init(args[1]))
    elif command == "compile":
        for path in compile_all():
            print(path)
    else:
        print(
            "usage: python -m rummykit.pofiles pot | update | init LANG | compile", file=sys.stderr
        )
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
