"""A Valkyrie quest folder played as the app's event engine plays it, to test what an exported quest
does: which events run in which order, what is on the board, how the quest ends.

A port, for the tests, of the parts of Valkyrie's EventManager and VarManager an exported quest
uses (its Apache-2.0 source, unity/Assets/Scripts/Quest/): events queued on a stack, the first
enabled event of a button's list, `vartests` read left to right with parentheses, operations,
`add`/`remove` (with `#boardcomponents` and `#monsters`), triggers by name (`EventStart`,
`StartRound`, `EndRound`, `Defeated...`, `Var...` for `@` variables) and `$end`. Shown events
wait for a button; `press` answers them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from questc.valkyrie.ini import IniSection, read_ini

EVENT_KINDS = ("Event", "Spawn", "Token", "Door")


@dataclass
class Play:
    sections: dict[str, IniSection]
    vars: dict[str, float] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    monsters: list[str] = field(default_factory=list)
    stack: list[str] = field(default_factory=list)
    current: str | None = None
    shown: list[str] = field(default_factory=list)  # every event shown, in order
    ran: list[str] = field(default_factory=list)  # every event run, in order
    ended: bool = False

    # ---- loading and state ----------------------------------------------------------
    @classmethod
    def of(cls, folder: Path, heroes: int = 2) -> Play:
        quest = read_ini((folder / "quest.ini").read_text(encoding="utf-8"))
        sections: dict[str, IniSection] = {}
        for name in quest.sections["QuestData"].entries:
            sections.update(read_ini((folder / name).read_text(encoding="utf-8")).sections)
        play = cls(sections)
        play.vars.update({"#round": 1, "#heroes": heroes})
        play.trigger_type("StartRound")
        play.trigger_type("EventStart")
        play.trigger_next()
        return play

    def events(self) -> list[str]:
        return [name for name in self.sections if name.startswith(EVENT_KINDS)]

    def value(self, operand: str) -> float:
        if operand[:1].isdigit() or operand[:1] in "-.":
            return float(operand)
        return self.vars.get(operand, 0.0)

    def test_one(self, text: str) -> bool:
        var, op, value = text.split(",")
        left, right = self.vars.get(var, 0.0), self.value(value)
        return {
            "==": left == right,
            "!=": left != right,
            ">=": left >= right,
            "<=": left <= right,
            ">": left > right,
            "<": left < right,
        }.get(op, False)

    def test(self, parts: list[str]) -> bool:
        """VarManager.Test: left to right, AND/OR as they come, a parenthesis evaluated apart."""
        result, operator, skip, index = True, "AND", 0, 0
        while index < len(parts):
            kind, _, body = parts[index].partition(":")
            if skip:
                skip += {"(": 1, ")": -1}.get(body, 0) if kind == "VarTestsParenthesis" else 0
            elif kind == "VarOperation":
                outcome = self.test_one(body)
                result = (result and outcome) if operator == "AND" else (result or outcome)
            elif kind == "VarTestsLogicalOperator":
                operator = body
            elif kind == "VarTestsParenthesis" and body == "(":
                inner = self.test(parts[index + 1 :])
                result = (result and inner) if operator == "AND" else (result or inner)
                skip = 1
            elif kind == "VarTestsParenthesis" and body == ")":
                return result
            index += 1
        return result

    def disabled(self, name: str) -> bool:
        section = self.sections[name]
        if name.startswith("Token"):
            return False
        if "vartests" in section.entries:
            return not self.test(section.entries["vartests"].split())
        if "conditions" in section.entries:
            return not all(self.test_one(c) for c in section.entries["conditions"].split())
        return False

    def perform(self, operation: str) -> None:
        var, op, value = operation.split(",")
        if var.startswith("#"):
            return
        amount = self.value(value)
        old = self.vars.get(var, 0.0)
        self.vars[var] = {"+": old + amount, "-": old - amount, "*": old * amount, "=": amount}.get(op, old)

    # ---- the engine -------------------------------------------------------------------
    def queue(self, name: str, trigger: bool = True) -> None:
        if name not in self.sections or self.disabled(name):
            return
        self.stack.append(name)
        if self.current is None and trigger:
            self.trigger_next()

    def trigger_type(self, kind: str) -> None:
        for name in self.events():
            if self.sections[name].entries.get("trigger") == kind:
                self.queue(name, trigger=False)

    def trigger_next(self) -> None:
        while self.current is None and self.stack and not self.ended:
            name = self.stack.pop()
            if self.disabled(name):
                continue
            self.current = name
            self.ran.append(name)
            entries = self.sections[name].entries
            for operation in entries.get("operations", "").split():
                self.perform(operation)
            if name.startswith("Spawn"):
                self.monsters.append(entries.get("monster", ""))
            for component in entries.get("add", "").split():
                assert component in self.sections, f"{name} adds {component}, which is not in the quest"
                if component not in self.board:
                    self.board.append(component)
            for component in entries.get("remove", "").split():
                if component == "#boardcomponents":
                    self.board.clear()
                elif component == "#monsters":
                    self.monsters.clear()
                elif component in self.board:
                    self.board.remove(component)
            if entries.get("display", "true").lower() == "false":
                self.end_event(0)
            else:
                self.shown.append(name)
                return  # a dialog: waits for `press`

    def end_event(self, button: int) -> None:
        name, self.current = self.current, None
        entries = self.sections[name].entries
        following = (
            entries.get(f"event{button + 1}", "").split() if button < int(entries.get("buttons", "0") or 0) else []
        )
        enabled = [n for n in following if n in self.sections and not self.disabled(n)]
        if self.vars.get("$end", 0):
            self.ended = True
            return
        if enabled:
            self.queue(enabled[0], trigger=False)
        for var in [v for v in self.vars if v.startswith("@")]:
            if self.vars[var] > 0:
                self.vars[var] = 0
                self.trigger_type("Var" + var[1:])
        self.trigger_next()

    # ---- the players -----------------------------------------------------------------
    def press(self, button: int = 0) -> None:
        """Answer the dialog shown with its button number `button` (0-based)."""
        assert self.current is not None, "no dialog is shown"
        self.end_event(button)

    def continue_all(self) -> None:
        """Press the first button of every dialog until none is shown, or an ending is (a victory or a
        `win`: it waits for the test to press it)."""
        for _ in range(500):
            if self.current is None or self.ended or self.ending():
                return
            self.press(0)
        raise AssertionError("the dialogs never stop")

    def ending(self) -> bool:
        """Is the dialog shown one that ends the quest or an encounter?"""
        entries = self.sections[self.current].entries if self.current else {}
        return (
            "$end,=,1" in entries.get("operations", "")
            or "Victory" in (self.current or "")
            or any(self.sections[n].entries.get("trigger") == "Varcheck" for n in [self.current] if n)
        )

    def click(self, component: str, button: int = 0) -> None:
        """A player clicks a token or a door on the board and presses one of its dialog's buttons."""
        assert component in self.board, f"{component} is not on the board"
        assert self.current is None
        self.queue(component)
        self.press(button)
        self.continue_all()

    def end_round(self, answer: int = 0) -> None:
        """The monsters have played: EndRound events, then the next round starts."""
        self.trigger_type("EndRound")
        self.trigger_next()
        if self.current is not None and self.sections[self.current].entries.get("trigger") == "EndRound":
            self.press(answer)
        self.continue_all()
        if not self.ended and self.current is None:
            self.vars["#round"] = self.vars.get("#round", 1) + 1
            self.trigger_type("StartRound")
            self.trigger_next()
            self.continue_all()

    def defeat(self, trigger: str) -> None:
        """A monster group is defeated: the app triggers `Defeated<monster>` (and `DefeatedUnique...`)."""
        for name in self.events():
            if self.sections[name].entries.get("trigger") == trigger:
                self.queue(name)
        self.continue_all()
