"""A ConnectX agent for Kaggle, written by `stacktune export kaggle` from a weights file.

It plays the weights as stacktune plays them (src/games/connect and src/search/alpha_beta.rs):
the same features of the board a move leaves, seen from the player who made it; the same
evaluation, the weights times the features added one by one in the features' order; the same
negamax with alpha-beta, columns tried centre first, and ties to the first best column; and
the same endgame stage (`--endgame`, ENDGAME below, 0: none): on the 7 × 6 board with lines of
four, from ENDGAME empty cells on, its own exact solver keeps the search to the columns that
keep a won or drawn position's value; and the opening book (`--book`, BOOK below), which does
the same for the first moves from the solutions stacktune's solver wrote (`stacktune
connect-book`). At a fixed depth it picks the column stacktune picks from
the same position (tests/integration/export.rs checks it). For Kaggle it deepens one ply at a time
until the time a move may take is half spent, the solver's time included, looking at the clock
often enough that it ends within a hundredth of the other half after that; a solver out of
time restricts nothing.

Standard library only, so that it runs as it is on Kaggle's image: submit this one file.
"""

import time

# <stacktune:generated> Written by `stacktune export kaggle`; export again rather than edit.
SOURCE = "(the template, before export)"
SOURCE_SHA256 = ""
FEATURE_NAMES = ("own_centre",)
WEIGHTS = {}
ENDGAME = 0
BOOK_PLIES = 0
BOOK = {}
# </stacktune:generated>

#: When this file began to run. Kaggle reads, compiles and runs the file inside the first
#: move's call, so that move's clock started before this line: it counts its time from here.
LOADED = time.perf_counter()

#: Share of `configuration.actTimeout` a move may use: the rest is the margin for the moments
#: the process does not run (on a loaded machine) and for Kaggle's own work around the call.
TIME_SHARE = 0.5
#: The longest stretch of search between two looks at the clock, as a share of that margin:
#: a move ends at most one stretch after its deadline.
LOOK_SHARE = 0.01
#: The most nodes between two looks, whatever the rate measured: that rate is the last
#: stretch's, and a load that arrives in the middle of a move slows the nodes after it. A look
#: costs a hundredth of a node.
LOOK_MOST = 32
#: The board the endgame stage plays on (rows, columns, line): stacktune's solver knows no other.
STANDARD = (6, 7, 4)
#: Positions the solver's table keeps before it starts over, so that a long game's memory
#: stays bounded (about 75 MB).
TABLE_LIMIT = 1_000_000
#: The bounds a table entry can hold, (lower, upper) with each of −1, 0 and 1, made once so
#: that the entries share them: half the memory of a tuple each.
BOUNDS = tuple(tuple((low, high) for high in (-1, 0, 1)) for low in (-1, 0, 1))

INF = float("inf")


try:
    popcount = int.bit_count
except AttributeError:  # Python before 3.10

    def popcount(x):
        return bin(x).count("1")  # noqa: FURB161


class OutOfTime(Exception):
    """The deadline passed in the middle of a search: its depth is abandoned."""


def centre_first(columns):
    """Columns centre first (the right one of two centres), then one left and one right further
    out: 3 2 4 1 5 0 6 on seven columns, stacktune's `centre_first`."""
    order = []
    for i in range(columns):
        offset = (i + 1) // 2
        order.append(columns // 2 + offset if i % 2 == 0 else columns // 2 - offset)
    return order


class Rules:
    """One board size and line length, with the bit masks derived from them.

    A player's discs are one integer, column after column, each column `rows` cells from the
    bottom plus one always-empty bit on top (stacktune's layout): lines are found with shifts,
    and the lowest empty cell of every column is `(occupied + bottom) & board`.
    """

    def __init__(self, rows, columns, inarow):
        self.rows, self.columns, self.inarow = rows, columns, inarow
        stride = rows + 1
        self.steps = (1, stride, stride + 1, stride - 1)
        # The shifts of lines of four along a row and the diagonals.
        self.four_shifts = tuple((s, 2 * s, 3 * s) for s in self.steps[1:])
        #: The empty cells that would complete a line for the owner of `discs`, given all discs.
        self.winning_cells = self.completing_four if inarow == 4 else self.completing_cells
        column = (1 << rows) - 1
        self.column_masks = [column << (c * stride) for c in range(columns)]
        self.bottom = sum(1 << (c * stride) for c in range(columns))
        self.board = sum(self.column_masks)
        centre = range((columns - 1) // 2, columns // 2 + 1)
        self.centre = sum(self.column_masks[c] for c in centre)
        self.odd_rows = sum(
            1 << (c * stride + r) for c in range(columns) for r in range(0, rows, 2)
        )
        self.windows = self._windows()
        self.order = [(c, self.column_masks[c]) for c in centre_first(columns)]
        # The same with ranks that sort the centre first among moves equal otherwise.
        self.solver_order = [(columns - i, mask) for i, (_, mask) in enumerate(self.order)]
        # The terms of the evaluation: (feature index, weight) for the weights this line length
        # has a feature for, in the features' order, zero weights left out as stacktune does.
        names = FEATURE_NAMES[: 10 + 2 * (inarow - 1)]
        self.terms = [(i, WEIGHTS[n]) for i, n in enumerate(names) if WEIGHTS.get(n, 0.0)]
        used = {i for i, _ in self.terms}
        self.centre_used = bool(used & {0, 1})
        self.threats_used = bool(used & set(range(2, 10)))
        self.windows_used = any(i >= 10 for i in used)
        self.features = [0.0] * len(names)
        # Window counts of 1 to inarow − 1 discs, as far as the features go.
        self.window_sizes = range(1, (len(names) - 8) // 2)
        self.nodes = 0
        self.deadline = None
        #: The node count at which to look at the clock next, and the last look's time and count.
        self.next_look = INF
        self.looked = (0.0, 0)
        self.look_seconds = 0.0
        self.solver = Solver(self)

    def cell(self, column, row):
        return 1 << (column * (self.rows + 1) + row)

    def mirror(self, bits):
        """`bits` with column c moved to column `columns − 1 − c`."""
        stride = self.rows + 1
        column = (1 << stride) - 1
        mirrored = 0
        for c in range(self.columns):
            mirrored |= ((bits >> (c * stride)) & column) << ((self.columns - 1 - c) * stride)
        return mirrored

    def _windows(self):
        span = self.inarow - 1
        windows = []
        for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for c in range(self.columns):
                for r in range(self.rows):
                    end_c, end_r = c + dc * span, r + dr * span
                    if 0 <= end_c < self.columns and 0 <= end_r < self.rows:
                        mask = 0
                        for i in range(span + 1):
                            mask |= self.cell(c + dc * i, r + dr * i)
                        windows.append(mask)
        return windows

    def completing_cells(self, discs, occupied):
        """The empty cells that would complete a line for the owner of `discs`: `winning_cells`
        for any line length."""
        n = self.inarow
        cells = 0
        for step in self.steps:
            before = [-1] * n
            after = [-1] * n
            for j in range(1, n):
                before[j] = before[j - 1] & (discs << (j * step))
                after[j] = after[j - 1] & (discs >> (j * step))
            for a in range(n):
                cells |= before[a] & after[n - 1 - a]
        return cells & self.board & ~occupied

    def completing_four(self, discs, occupied):
        """`completing_cells` for lines of four, unrolled, in less than half its time: the
        solver spends most of its own here."""
        # Up a column only the cell above three discs: the cells below discs are never empty.
        cells = (discs << 1) & (discs << 2) & (discs << 3)
        for one, two, three in self.four_shifts:
            left = discs << one
            right = discs >> one
            two_left = left & (discs << two)
            two_right = right & (discs >> two)
            cells |= two_left & ((discs << three) | right)
            cells |= two_right & (left | (discs >> three))
        return cells & self.board & ~occupied

    def score(self, own, opp):
        """The evaluation of the board a move left, `own` the discs of the player who made it."""
        v = self.features
        occupied = own | opp
        if self.centre_used:
            v[0] = popcount(own & self.centre)
            v[1] = popcount(opp & self.centre)
        if self.threats_used:
            playable = (occupied + self.bottom) & self.board
            # The first player has one disc more after its own move: its threats on odd rows
            # count as on its parity, the second player's on even rows (Allis' zugzwang rule).
            mover_first = popcount(own) > popcount(opp)
            for first, parity, discs, first_player in (
                (2, 8, own, mover_first),
                (5, 9, opp, not mover_first),
            ):
                threats = self.winning_cells(discs, occupied)
                later = threats & ~playable
                v[first] = popcount(threats & playable)
                v[first + 1] = popcount(later & self.odd_rows)
                v[first + 2] = popcount(later & ~self.odd_rows)
                v[parity] = v[first + 1] if first_player else v[first + 2]
        if self.windows_used:
            counts = [[0] * (self.inarow + 1), [0] * (self.inarow + 1)]
            for w in self.windows:
                o = own & w
                p = opp & w
                if not p:
                    counts[0][popcount(o)] += 1
                elif not o:
                    counts[1][popcount(p)] += 1
            for k in self.window_sizes:
                v[8 + 2 * k] = counts[0][k]
                v[9 + 2 * k] = counts[1][k]
        s = 0.0
        for i, w in self.terms:
            s += w * float(v[i])
        return s

    def moves(self, own, opp):
        """The legal columns of the side to move (`own`), centre first, each as (column, the
        mover's discs after it, its terminal value or None): +inf a win, 0 a draw."""
        occupied = own | opp
        playable = (occupied + self.bottom) & self.board
        wins = self.winning_cells(own, occupied)
        for column, mask in self.order:
            cell = playable & mask
            if not cell:
                continue
            if cell & wins:
                yield column, own | cell, INF
            elif occupied | cell == self.board:
                yield column, own | cell, 0.0
            else:
                yield column, own | cell, None

    def tick(self):
        self.nodes += 1
        if self.nodes >= self.next_look:
            self.look()

    def start_clock(self, deadline, look_seconds):
        """Searches from now on stop at `deadline` (`time.perf_counter`), looking at the clock
        about every `look_seconds`; None: they run to the end."""
        self.deadline = deadline
        self.look_seconds = look_seconds
        self.looked = (time.perf_counter(), self.nodes)
        self.next_look = self.nodes + 1 if deadline is not None else INF

    def look(self):
        """Stops the search past the deadline; else sets the next look `look_seconds` of
        search later, at the rate of the nodes since the last look (at most LOOK_MOST on)."""
        if self.deadline is None:
            self.next_look = INF
            return
        now = time.perf_counter()
        if now > self.deadline:
            raise OutOfTime()
        then, nodes = self.looked
        done = self.nodes - nodes
        fit = int(done * self.look_seconds / (now - then)) if now > then else LOOK_MOST
        self.next_look = self.nodes + max(1, min(fit, LOOK_MOST))
        self.looked = (now, self.nodes)

    def best_value(self, own, opp):
        """The best one-ply value for the side to move (`own`): stacktune's `best_value`."""
        self.tick()
        best = -INF
        for _, after, terminal in self.moves(own, opp):
            value = terminal if terminal is not None else self.score(after, opp)
            best = max(best, value)
        return best

    def negamax(self, own, opp, depth, alpha, beta):
        """The value for the side to move (`own`), `depth` plies within (alpha, beta);
        fail-soft, as stacktune's `negamax`."""
        if depth == 1:
            return self.best_value(own, opp)
        self.tick()
        best = -INF
        for _, after, terminal in self.moves(own, opp):
            if alpha >= beta:
                break
            if terminal is not None:
                value = terminal
            else:
                value = -self.negamax(opp, after, depth - 1, -beta, -alpha)
            best = max(best, value)
            alpha = max(alpha, value)
        return best

    def choose(self, own, opp, depth, allowed=None):
        """The first best column at `depth` plies and its value: stacktune's `alpha_beta`
        (depth 1: the one-ply player), among the `allowed` columns only when given."""
        best = None
        for column, after, terminal in self.moves(own, opp):
            if allowed is not None and column not in allowed:
                continue
            if depth <= 1:
                value = terminal if terminal is not None else self.score(after, opp)
            else:
                alpha = -INF if best is None else best[1]
                if alpha == INF:
                    break
                if terminal is not None:
                    value = terminal
                else:
                    value = -self.negamax(opp, after, depth - 1, -INF, -alpha)
            if best is None or value > best[1]:
                best = (column, value)
        return best


class Solver:
    """Perfect play as win, draw or loss (1, 0, −1 for the side to move), which is all the
    endgame stage asks: far cheaper than the exact scores (how soon a game ends) of stacktune's
    solver (src/games/connect/solver.rs), with Pascal Pons' techniques as that one: bitboards,
    negamax with alpha-beta over null windows, a table of bounds, the moves that hand the
    opponent a win left out, and the moves that make the most threats tried first.

    Its table keeps, for one player's discs and all discs, the bounds it proved: facts about
    a position whatever the search started from, so it is kept from one move to the next. A
    search stopped by the clock records nothing it did not finish.
    """

    def __init__(self, rules):
        self.rules = rules
        self.cells = rules.rows * rules.columns
        self.table = {}

    def negamax(self, own, occupied, moves, alpha, beta):
        """The value for `own` to move, `moves` discs played, within (alpha, beta); fail-soft.
        The side to move cannot win with this disc: its caller made sure."""
        rules = self.rules
        rules.tick()
        winning_cells = rules.winning_cells
        opp = own ^ occupied
        threats = winning_cells(opp, occupied)
        playable = (occupied + rules.bottom) & rules.board
        forced = playable & threats
        if forced:
            if forced & (forced - 1):
                return -1  # two wins to block
            playable = forced
        # Never under a cell where the opponent would win.
        playable &= ~(threats >> 1)
        if not playable:
            return -1
        if moves >= self.cells - 2:
            return 0  # two cells left, and neither side can win in them
        key = own + occupied
        table = self.table
        bounds = table.get(key)
        if bounds is not None:
            low, high = bounds
            if low >= beta:
                return low
            if high <= alpha:
                return high
            alpha = max(alpha, low)
            beta = min(beta, high)
            if alpha >= beta:
                return alpha
        if playable & (playable - 1):
            # The moves by the threats they make, centre first among equals.
            children = []
            for rank, mask in rules.solver_order:
                cell = playable & mask
                if cell:
                    made = popcount(winning_cells(own | cell, occupied | cell))
                    children.append((made, rank, cell))
            children.sort(reverse=True)
        else:
            children = ((0, 0, playable),)
        for _, _, cell in children:
            value = -self.negamax(opp, occupied | cell, moves + 1, -beta, -alpha)
            if value >= beta:
                result = low = value
                high = 1
                break
            alpha = max(alpha, value)
        else:
            result = high = alpha
            low = -1
        if bounds is not None:
            low, high = max(low, bounds[0]), min(high, bounds[1])
        if len(table) >= TABLE_LIMIT:
            table.clear()
        table[key] = BOUNDS[low + 1][high + 1]
        return result

    def above(self, own, occupied, moves, score):
        """Whether the value for `own` to move, `moves` discs played, is above `score`: one
        null-window search."""
        rules = self.rules
        if rules.winning_cells(own, occupied) & (occupied + rules.bottom) & rules.board:
            return score < 1
        if moves == self.cells:
            return score < 0
        return self.negamax(own, occupied, moves, score, score + 1) > score

    def keeping(self, own, opp):
        """The columns that keep the value of a position in play for `own` to move: the ones
        that win when it is won, the ones that draw when it is drawn; None when it is lost
        (every column loses)."""
        rules = self.rules
        occupied = own | opp
        moves = popcount(occupied)
        playable = (occupied + rules.bottom) & rules.board
        wins = rules.winning_cells(own, occupied)
        legal = [(c, playable & mask) for c, mask in rules.order if playable & mask]
        # After a column, the opponent is to move: its value below 0 is our win.
        won = {
            c
            for c, cell in legal
            if cell & wins or not self.above(opp, occupied | cell, moves + 1, -1)
        }
        if won:
            return won
        drawn = {c for c, cell in legal if not self.above(opp, occupied | cell, moves + 1, 0)}
        return drawn or None


_RULES = {}


def rules_for(rows, columns, inarow):
    """The tables of one configuration, built once."""
    key = (rows, columns, inarow)
    if key not in _RULES:
        _RULES[key] = Rules(rows, columns, inarow)
    return _RULES[key]


def setting(configuration, name, default):
    """A configuration value, whether Kaggle passes an object or a plain dict."""
    if isinstance(configuration, dict):
        return configuration.get(name, default)
    return getattr(configuration, name, default)


def read_board(rules, board, mark):
    """The discs of the side to move (`mark`) and of the other side, from Kaggle's board: row 0
    at the top, `rows × columns` cells, 0 empty, 1 and 2 the players."""
    own = opp = 0
    for r in range(rules.rows):
        for c in range(rules.columns):
            v = board[r * rules.columns + c]
            if v:
                bit = rules.cell(c, rules.rows - 1 - r)
                if v == mark:
                    own |= bit
                else:
                    opp |= bit
    return own, opp


#: What `book_keeping` answers for a position the book does not hold.
NOT_IN_BOOK = object()


def book_keeping(rules, own, opp):
    """The columns the opening book (BOOK, stacktune's `--book`) keeps for the side to move
    (`own`): those that keep a won or drawn position's value under perfect play, None for a
    lost one (every column); NOT_IN_BOOK past its BOOK_PLIES discs, off the standard board, or
    where it does not hold the position or its mirror image. The book's key is stacktune's
    solver's: the mover's discs plus all discs, which also shows whose turn it is."""
    occupied = own | opp
    if (rules.rows, rules.columns, rules.inarow) != STANDARD or popcount(occupied) > BOOK_PLIES:
        return NOT_IN_BOOK
    key = own + occupied
    kept = BOOK.get(key)
    if kept is not None:
        columns = range(rules.columns)
    else:
        kept = BOOK.get(rules.mirror(key))
        if kept is None:
            return NOT_IN_BOOK
        columns = range(rules.columns - 1, -1, -1)
    if not kept:
        return None
    return {column for bit, column in enumerate(columns) if kept >> bit & 1}


def kept_columns(rules, own, opp, endgame, book):
    """The columns the search may choose from, or None for all of them: the opening book's
    where it holds the position (when `book`), else the endgame stage's (`value_keeping`)."""
    if book:
        kept = book_keeping(rules, own, opp)
        if kept is not NOT_IN_BOOK:
            return kept
    return value_keeping(rules, own, opp, endgame)


def value_keeping(rules, own, opp, endgame):
    """The columns stacktune's endgame stage (`--endgame`) lets the search choose from, or None
    for all of them: on the standard board with at most `endgame` empty cells (0: never), the
    columns that keep a won or drawn position won or drawn under perfect play. A lost position
    keeps them all: the search plays on, hoping for an error."""
    empty = rules.rows * rules.columns - popcount(own | opp)
    if (rules.rows, rules.columns, rules.inarow) != STANDARD or not 0 < empty <= endgame:
        return None
    return rules.solver.keeping(own, opp)


def choose_column(board, mark, rows, columns, inarow, depth, endgame=0, book=False):
    """The column stacktune picks at a fixed `depth` (alpha-beta plies, 1: one ply) with an
    endgame stage from `endgame` empty cells (0: none) and, when `book`, the opening book, for
    the side playing `mark` on a Kaggle board: what tests compare with stacktune."""
    rules = rules_for(rows, columns, inarow)
    own, opp = read_board(rules, board, mark)
    rules.start_clock(None, 0.0)
    allowed = kept_columns(rules, own, opp, endgame, book)
    return rules.choose(own, opp, depth, allowed)[0]


def agent(observation, configuration):
    """Kaggle's entry point: the column to play, searched one ply deeper at a time until
    TIME_SHARE of `actTimeout` is spent (the first move's time counted from LOADED); the last
    depth searched in full decides. A depth where every column loses does not replace the
    choice of the depth before (against a player who errs, the shallower choice still looks
    best), and a won position stops.

    In the opening book's positions (BOOK), and from ENDGAME empty cells on (0: never), the
    search chooses among the columns that keep the position's value under perfect play
    (`kept_columns`): the book's, or the endgame solver's, solved first within the same time.
    When the solver runs out of that time, the search chooses among all columns, as without
    the endgame stage, in what time is left (at least the one-ply choice)."""
    global LOADED
    start = time.perf_counter() if LOADED is None else LOADED
    LOADED = None
    rows = int(setting(configuration, "rows", 6))
    columns = int(setting(configuration, "columns", 7))
    inarow = int(setting(configuration, "inarow", 4))
    seconds = float(setting(configuration, "actTimeout", 2))
    board = setting(observation, "board", None)
    mark = int(setting(observation, "mark", 1))
    rules = rules_for(rows, columns, inarow)
    own, opp = read_board(rules, board, mark)
    empty = rows * columns - popcount(own | opp)
    deadline = start + TIME_SHARE * seconds
    look_seconds = LOOK_SHARE * (1 - TIME_SHARE) * seconds
    rules.start_clock(deadline, look_seconds)
    try:
        allowed = kept_columns(rules, own, opp, ENDGAME, True)
    except OutOfTime:
        allowed = None
    rules.start_clock(None, 0.0)
    column, value = rules.choose(own, opp, 1, allowed)
    rules.start_clock(deadline, look_seconds)
    depth = 1
    while value != INF and depth < empty:
        depth += 1
        try:
            deeper, value = rules.choose(own, opp, depth, allowed)
        except OutOfTime:
            break
        if value == -INF:
            break
        column = deeper
    return column
