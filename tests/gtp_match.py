#!/usr/bin/env python3
"""tests/gtp_match.py -- two GTP engines play complete games of Go.

usage: gtp_match.py SIZE GAMES 'BLACK ENGINE COMMAND' 'WHITE ENGINE COMMAND'

Each game: boardsize, clear_board, komi 0 to both; then the engines
alternate genmove / play until two passes in a row (or 4*SIZE*SIZE
moves).  Every move one engine makes must be accepted by the other ("=").
At the end both are asked for final_score, which must agree (as a number:
"B+9.0" and "B+9" are the same).  Prints one line per game and exits 1 on
the first disagreement or refusal."""
import shlex, subprocess, sys

def engine(cmd):
    return subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)

def ask(p, command):
    p.stdin.write(command + "\n")
    p.stdin.flush()
    lines = []
    while True:
        line = p.stdout.readline()
        if line == "":
            raise SystemExit("engine died on: " + command)
        line = line.rstrip("\n")
        if line == "" and lines:
            break
        if line == "" and not lines:
            continue
        lines.append(line)
    head = lines[0]
    ok = head.startswith("=")
    return ok, (head[1:].strip() + ("\n" + "\n".join(lines[1:]) if len(lines) > 1 else "")).strip()

def score(text):
    text = text.strip().upper()
    if text in ("0", "0.0"):
        return 0.0
    side, _, amount = text.partition("+")
    return float(amount) * (1 if side == "B" else -1)

def main():
    size, games = int(sys.argv[1]), int(sys.argv[2])
    engines = [engine(sys.argv[3]), engine(sys.argv[4])]
    colours = ["black", "white"]
    status = 0
    for game in range(games):
        for p in engines:
            for c in ("boardsize %d" % size, "clear_board", "komi 0"):
                ok, r = ask(p, c)
                if not ok:
                    raise SystemExit("refused: %s: %s" % (c, r))
        passes, moves, turn, line = 0, 0, 0, []
        while passes < 2 and moves < 4 * size * size:
            ok, mv = ask(engines[turn], "genmove " + colours[turn])
            if not ok:
                print("game %d: genmove failed: %s" % (game + 1, mv)); return 1
            ok, r = ask(engines[1 - turn], "play %s %s" % (colours[turn], mv))
            if not ok:
                print("game %d: %s %s refused after %s: %s" % (game + 1, colours[turn], mv, " ".join(line), r))
                return 1
            line.append(mv)
            passes = passes + 1 if mv.lower() == "pass" else 0
            moves += 1
            turn = 1 - turn
        s = [ask(p, "final_score")[1] for p in engines]
        same = score(s[0]) == score(s[1])
        print("game %d (%dx%d): %s; final_score %s and %s: %s" % (game + 1, size, size, " ".join(line),
              s[0], s[1], "agree" if same else "DIFFER"))
        if not same:
            status = 1
        if game % 2 == 0:
            engines.reverse()   # the next game with colours swapped
    for p in engines:
        ask(p, "quit")
    return status

sys.exit(main())
