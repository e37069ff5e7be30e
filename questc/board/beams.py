"""First-edition lines of sight from a cell's centre, shared as a tree of beams (in: a
board's bitsets for one door state and a set of source cells; out: what they see).

A first-edition line is the segment between two cell centres (LANGUAGE.md section 9).
Seen from the source's centre, the lines to all targets that begin with the same
features (geometry.segment_features: cells crossed, edges crossed, grid points passed)
are one *beam*: an interval of slopes.  Walking outward from the source cell, a beam
in cell (c, r) (in the frame of one quadrant, c and r >= 0) goes next to cell
(c + 1, r), across a vertical edge, when its slope t = |dy|/|dx| is below the slope
s = (2r + 1)/(2c + 1) of the corner ahead; to (c, r + 1) across a horizontal edge when
above; through the grid point to (c + 1, r + 1) when equal.  A beam whose interval
holds s splits in three: below, exactly s (a single line through grid points), above.
A target cell's line ends in the beam that holds the slope of its centre, and its
features are that beam's path up to the target's own cell (which, like the source's,
never blocks).

So every line from the source is walked once per distinct beginning, not once per
direction: a cast costs one big-int step per beam that some source still sees along,
and beams die with their last source.  The tree is the same for every board; it is
built as far as any cast has needed it and kept for the process, and one tree serves
the four quadrants by mirroring.  The bitsets are bulk.py's: one bit per cell of the
board's box (with a one-cell margin, which is opaque, so a line leaving the box dies
there), shifted by a feature's index offset to test it for every source at once.

This gives exactly the answers of the per-direction rays it replaces (tests compare
both, and `sight.check`, on generated maps).
"""

from __future__ import annotations

# Event kinds, in the frame of a quadrant: across a vertical edge, a horizontal edge,
# or through a grid point.
V, H, P = 0, 1, 2

# A slope is a pair (numerator, denominator) of non-negative ints; (1, 0) is infinite. Slope
# a is below slope b when a[0] * b[1] < b[0] * a[1] (no division, infinity included).
INFINITY = (1, 0)


class Beam:
    """Lines whose slopes lie in (lo, hi) (or are exactly lo, when `exact`), from the source
    centre to the cell (c, r) they are in now, entered by the event `kind`; `target` when
    the centre of (c, r) is on one of them (and it is no neighbour of the source)."""

    __slots__ = ("kind", "c", "r", "lo", "hi", "exact", "target", "_next", "_run")

    def __init__(self, kind: int, c: int, r: int, lo: tuple[int, int], hi: tuple[int, int], exact: bool):
        self.kind, self.c, self.r, self.lo, self.hi, self.exact = kind, c, r, lo, hi, exact
        # Is the slope r/c of the centre of (c, r) on the beam (lo < r/c < hi, or exactly lo)?
        if exact:
            on = r * lo[1] == c * lo[0]
        else:
            on = lo[0] * c < r * lo[1] and r * hi[1] < hi[0] * c
        self.target = on and (c >= 2 or r >= 2)
        self._next: tuple[Beam, ...] | None = None
        self._run: tuple | None = None  # see `_run`

    def next(self) -> tuple[Beam, ...]:
        """The beams one event further out (made once, then kept)."""
        found = self._next
        if found is None:
            found = self._next = _split(self)
        return found


def _split(beam: Beam) -> tuple[Beam, ...]:
    c, r, lo, hi = beam.c, beam.r, beam.lo, beam.hi
    corner = (2 * r + 1, 2 * c + 1)
    below = lo[0] * corner[1] < corner[0] * lo[1]
    if beam.exact:
        if below:
            return (Beam(V, c + 1, r, lo, lo, True),)
        if corner[0] * lo[1] < lo[0] * corner[1]:
            return (Beam(H, c, r + 1, lo, lo, True),)
        return (Beam(P, c + 1, r + 1, lo, lo, True),)
    if not below:
        return (Beam(H, c, r + 1, lo, hi, False),)
    if not corner[0] * hi[1] < hi[0] * corner[1]:
        return (Beam(V, c + 1, r, lo, hi, False),)
    return (
        Beam(V, c + 1, r, lo, corner, False),
        Beam(P, c + 1, r + 1, corner, corner, True),
        Beam(H, c, r + 1, corner, hi, False),
    )


class _Root:
    """The source cell: its three beams are the open quadrant and its two axes."""

    def __init__(self) -> None:
        self.quadrant = _split(Beam(V, 0, 0, (0, 1), INFINITY, False))
        # Along the axes: slope 0 only ever crosses vertical edges, infinity horizontal ones.
        self.east = Beam(V, 1, 0, (0, 1), (0, 1), True)
        self.south = Beam(H, 0, 1, INFINITY, INFINITY, True)


_ROOT: _Root | None = None


def root() -> _Root:
    global _ROOT
    if _ROOT is None:
        _ROOT = _Root()
    return _ROOT


def forget() -> None:
    """Drop the tree (it grows with the longest line any cast has walked)."""
    global _ROOT
    _ROOT = None


# How many rows a beam going north may climb above its sources before the cast moves its
# frame further up (see `cast`).
CLIMB = 24
# Most beams run on for many cells without splitting or meeting a target's centre: such a
# run is tested a few steps at a time, with masks that AND the steps together.
RUN, CHUNK = 16, 4


def _run(beam: Beam) -> tuple[tuple[tuple[tuple[int, ...], int, int], ...], Beam]:
    """The beams from `beam` on that are no target and have one next beam (at most RUN), in
    chunks of CHUNK as (event kinds, c moves, r moves); and the beam where that stops."""
    found = beam._run
    if found is None:
        kinds: list[int] = []
        node = beam
        while not node.target and len(kinds) < RUN:
            nxt = node.next()
            if len(nxt) != 1:
                break
            kinds.append(node.kind)
            node = nxt[0]
        chunks = []
        for i in range(0, len(kinds), CHUNK):
            part = tuple(kinds[i : i + CHUNK])
            moves_c = moves_r = 0
            for kind in part:
                moves_c += kind != H
                moves_r += kind != V
            chunks.append((part, moves_c, moves_r))
        found = beam._run = (tuple(chunks), node)
    return found


def cast(
    starts,
    sources: int,
    steps: tuple[int, int, int],
    events: tuple[int, int, int],
    cell: int,
    wp: int,
    sx: int,
    sy: int,
    limit_c: int,
    limit_r: int,
) -> list[tuple[int, int, int, int, int]]:
    """Walk the beams `starts` from the sources `sources` (bits) in the quadrant (sx, sy).

    `steps[kind]`: the open mask of an event of that kind and the cell it enters, together
    (both keyed to the entered cell's bit); `events[kind]`: the event alone, for target
    beams (the target is tested before its own cell, which never blocks); `cell`: the
    cells a line may cross; `wp` the row length of the bitsets.  Beams past `limit_c` or
    `limit_r` are not followed.

    The bits a beam carries sit where its line is (a source's bit moved by the beam's
    offset), and are kept shifted down by a *base* of whole rows: the ints stay as long
    as the rows between the sources' top row and the beam, not as the board, so a step
    costs little on a large board when the sources are near each other.  A beam going
    north more than CLIMB rows above the sources moves to a frame based higher up.

    Returns, for each target beam, (c, r, the sources still seeing along it as bits at the
    target, the base in bits, the beam's offset in bits): the bit of source s is at
    s + offset - base.
    """
    found: list[tuple[int, int, int, int, int]] = []
    if not sources:
        return found
    low_row = ((sources & -sources).bit_length() - 1) // wp
    kx, ky = sx, sy * wp
    delta = (kx, ky, kx + ky)  # the index move of each event kind: V, H, P
    frames: dict[int, tuple] = {}

    def frame(base_row: int) -> tuple:
        got = frames.get(base_row)
        if got is None:
            shift = base_row * wp
            # How far north a beam may go in this frame: to the base row.
            top = low_row - base_row if sy < 0 and base_row > 0 else limit_r
            # The masks of runs of steps, by their kinds; single steps now, runs on use.
            runs = {(kind,): m >> shift for kind, m in enumerate(steps)}
            got = frames[base_row] = (top, runs, tuple(m >> shift for m in events), cell >> shift, base_row)
        return got

    def run_mask(runs: dict, kinds: tuple[int, ...]) -> int:
        # The bits at the run's end whose every step is open: the last step's mask, and the
        # rest's moved on by the last step.
        found = runs.get(kinds)
        if found is None:
            head, d = run_mask(runs, kinds[:-1]), delta[kinds[-1]]
            found = runs[kinds] = runs[kinds[-1:]] & (head << d if d > 0 else head >> -d)
        return found

    first = frame(max(0, low_row - CLIMB) if sy < 0 else low_row)
    stack = [(beam, sources >> first[4] * wp, first) for beam in starts]
    pop, push, add = stack.pop, stack.append, found.append
    while stack:
        beam, cur, fr = pop()
        run = beam._run
        if run is None:
            run = _run(beam)
        chunks, node = run
        if node.r > fr[0]:
            higher = frame(max(0, fr[4] - CLIMB))
            cur <<= (fr[4] - higher[4]) * wp
            fr = higher
        runs = fr[1]
        for kinds, moves_c, moves_r in chunks:
            d = moves_c * kx + moves_r * ky
            m = runs.get(kinds)
            if m is None:
                m = run_mask(runs, kinds)
            cur = (cur << d if d > 0 else cur >> -d) & m
            if not cur:
                break
        if not cur:
            continue
        kind = node.kind
        d = delta[kind]
        cur = cur << d if d > 0 else cur >> -d
        if node.target:
            cur &= fr[2][kind]
            if not cur:
                continue
            add((node.c, node.r, cur, fr[4] * wp, node.r * ky + node.c * kx))
            cur &= fr[3]
        else:
            cur &= runs[(kind,)]
        if not cur or node.c >= limit_c or node.r >= limit_r:
            continue
        nxt = node._next
        if nxt is None:
            nxt = node.next()
        for child in nxt:
            push((child, cur, fr))
    return found
