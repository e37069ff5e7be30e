"""Compile grammar/quest.lark with Lark into the tables questc.syntax.lalr runs on.

    python -m questc.syntax.make_tables      # rewrites questc/syntax/tables.json

Lark stays the grammar compiler: it checks the grammar (strict mode in the tests),
builds the LALR(1) automaton, orders each parser state's terminals for its contextual
lexer and plans how every rule shapes its tree node. This module writes all of that
down as plain data (JSON), so a run of questc parses without importing Lark (the
import and the loading of Lark's own cache were a third of a `questc lint` cold start).

The output is canonical: Lark numbers states differently from one run to the next
(string hashing), so states are renumbered in breadth-first order from the start state
and rules are sorted, and the same grammar always gives the same file. A test checks
that the file is current; a run whose grammar does not match the tables builds them
here in memory instead (see questc.syntax.lalr.load_tables).
"""
from __future__ import annotations

import sys
from pathlib import Path

FORMAT = 2   # bump with questc.syntax.lalr.TABLES_FORMAT when the layout of the tables changes


def build_tables(grammar: str) -> dict:
    """The tables for `grammar`, as a dict of plain data:

    ACTIONS[state][symbol]: a shift (or, for a rule's name, a goto) to that state when
        >= 0; reduce by RULES[-1 - action] when negative.
    RULES[i]: (node name, number of symbols, is a ?rule that hands up a lone child,
        plan or None, the rule's own name for the goto). A plan is ((index, splice,
        Nones before), ...), Nones at the end): which children stay (anonymous tokens
        go), which are `_rules` spliced in, where absent [optional] parts stand.
    LEXERS[i]: (pattern, keyword remaps, terminal names): one alternation of named
        groups in Lark's order for the terminals of the states in LEXER_OF_STATE that
        point to it; a match of a terminal in the remaps whose text is one of its
        keywords is that keyword. ROOT_LEXER: the same for every terminal.
    START_STATE, END_STATE, IGNORE (terminals skipped), LITERALS (terminal -> its
    text, for the fixed ones), GRAMMAR (the grammar's fingerprint), FORMAT.
    """
    from lark import Lark
    from lark.parse_tree_builder import maybe_create_child_filter

    from questc.syntax.lalr import grammar_digest

    lark = Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True,
                maybe_placeholders=True)
    parse_table = lark.parser.parser.parser.parse_table
    contextual = lark.parser.lexer
    (start_name,) = parse_table.start_states

    # -- rules, in a canonical order -------------------------------------------------
    def rule_key(rule):
        return (rule.origin.name, " ".join(s.name for s in rule.expansion), rule.alias or "")

    rules = sorted({id(r): r for r in _reduced_rules(parse_table)}.values(), key=rule_key)
    keys = [rule_key(r) for r in rules]
    assert len(set(keys)) == len(keys), "two rules with the same shape"
    rule_index = {id(r): i for i, r in enumerate(rules)}
    rule_rows = []
    for rule in rules:
        options = rule.options
        shaper = maybe_create_child_filter(rule.expansion, options.keep_all_tokens, False,
                                           options.empty_indices)
        if shaper is None:
            plan = None
        elif len(shaper.args) == 2:   # ChildFilterLALR: (to_include, nones at the end)
            to_include, append_none = shaper.args
            plan = (tuple((i, bool(x), n) for i, x, n in to_include), append_none)
        else:                         # ChildFilterLALR_NoPlaceholders: (to_include,)
            (to_include,) = shaper.args
            plan = (tuple((i, bool(x), 0) for i, x in to_include), 0)
        name = rule.alias or options.template_source or rule.origin.name
        rule_rows.append((str(name), len(rule.expansion), bool(options.expand1 and not rule.alias), plan,
                          str(rule.origin.name)))

    # -- states, renumbered breadth-first from the start -----------------------------
    old_states = parse_table.states
    start_old = parse_table.start_states[start_name]
    end_old = parse_table.end_states[start_name]
    order, number = [start_old], {start_old: 0}
    for old in order:
        for symbol in sorted(old_states[old]):
            action, target = old_states[old][symbol]
            if action.name == "Shift" and target not in number:
                number[target] = len(order)
                order.append(target)
    if end_old not in number:
        number[end_old] = len(order)
        order.append(end_old)
    assert len(order) == len(old_states), "a parser state not reachable from the start"

    actions = []
    for old in order:
        row = {}
        for symbol in sorted(old_states[old]):
            action, target = old_states[old][symbol]
            row[str(symbol)] = number[target] if action.name == "Shift" else -1 - rule_index[id(target)]
        actions.append(row)

    # -- the contextual lexer: one scanner per distinct set of terminals -------------
    def scanner_row(basic_lexer):
        scanner = basic_lexer._build_scanner()
        terminals = scanner.terminals
        assert len(terminals) < 100, "Python's re allows 100 named groups"
        pattern = str("|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals))
        unless = {str(name): {str(t.pattern.value): str(t.name) for t in callback.scanner.terminals}
                  for name, callback in sorted(basic_lexer.callback.items())}
        return pattern, unless, sorted(str(t.name) for t in terminals)

    lexers, lexer_of_state, seen = [], [], {}
    for old in order:
        row = scanner_row(contextual.lexers[old])
        key = repr(row)
        if key not in seen:
            seen[key] = len(lexers)
            lexers.append(row)
        lexer_of_state.append(seen[key])
    root = scanner_row(contextual.root_lexer)

    terminals = {str(t.name): (str(t.pattern.value) if t.pattern.type == "str" else None)
                 for t in sorted(lark.lexer_conf.terminals, key=lambda t: t.name)}
    return {
        "FORMAT": FORMAT,
        "GRAMMAR": list(grammar_digest(grammar)),
        "START_STATE": 0,
        "END_STATE": number[end_old],
        "IGNORE": sorted(str(name) for name in lark.lexer_conf.ignore),
        "LITERALS": terminals,
        "RULES": rule_rows,
        "ACTIONS": actions,
        "LEXERS": lexers,
        "LEXER_OF_STATE": lexer_of_state,
        "ROOT_LEXER": root,
    }


def lark_parser(strict: bool = False):
    """Lark's own parser for the grammar, as the tables were made from (for tests and tools).

    strict=True makes Lark refuse any shift/reduce conflict or terminal collision."""
    from lark import Lark

    from questc.syntax.lalr import grammar_text

    return Lark(grammar_text(), parser="lalr", lexer="contextual", propagate_positions=True,
                maybe_placeholders=True, strict=strict)


def _reduced_rules(parse_table):
    for row in parse_table.states.values():
        for action, target in row.values():
            if action.name != "Shift":
                yield target


def render(tables: dict) -> str:
    """The tables as the text of questc/syntax/tables.json: JSON, one state, rule or
    lexer to a line, so a grammar change reads as a diff.

    JSON rather than a Python module: a module of literals this size takes 22 ms to
    compile where no bytecode is cached (an editable install, a read-only folder),
    and JSON loads in under a millisecond either way."""
    import json

    def dump(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    parts = []
    for name, value in tables.items():
        if isinstance(value, list) and value and isinstance(value[0], (list, dict)):
            rows = ",\n  ".join(dump(row) for row in value)
            parts.append(f"{dump(name)}:[\n  {rows}\n]")
        else:
            parts.append(f"{dump(name)}:{dump(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> None:
    root = Path(__file__).resolve().parent
    from questc.syntax.lalr import grammar_text

    target = root / "tables.json"
    text = render(build_tables(grammar_text()))
    if target.exists() and target.read_text(encoding="utf-8") == text:
        print(f"{target} is current")
        return
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    sys.exit(main())
