#!/usr/bin/python3
"""tests/web_test.py GSOLVE OUTDIR -- gsolve serve's page in headless Chromium.

Starts `GSOLVE serve --port 0` on the bundled games and drives the page
with Selenium (Debian's chromium, chromium-driver, python3-selenium):
  - Tic-tac-toe played to the end by clicks on the board, the value shown
    for every legal move at every step compared with the command's own
    `gsolve games/tictactoe.game --position MOVES --all-moves --json`;
  - Connect Four (5 x 4, set in the parameter form) against the computer
    at level 3, each of its moves checked to be one of the best of
    `gsolve ... --solve --depth 3 --json`; the 7 x 6 board first, whose
    start is not solved within the server's time limit: the page says so;
  - Nim: heaps set to 2,2 in the form, the board redrawn (4 matches in 2
    rows instead of 16 in 4);
  - Kuhn poker: Q to P1, J to P2, P1 checks; the strategy (lp, exact) for P2 bets
    with probability 1/3 (the equilibrium's bluff: Kuhn 1950).
Screenshots go to OUTDIR/web-*.png.  Fails on any error the page logs.
Prints one line per check ("ok ..." or "FAIL ...") and exits 1 on a failure."""
import json, os, subprocess, sys, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

GSOLVE, OUT = os.path.abspath(sys.argv[1]), sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = os.path.join(ROOT, "games")
failures = 0


def check(desc, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + desc + ("" if ok else ": " + detail))
    if not ok:
        failures += 1


def gs(game, *args):
    r = subprocess.run([GSOLVE, os.path.join(GAMES, game + ".game"), "--quiet"] + list(args),
                       capture_output=True, text=True, timeout=60)
    return json.loads(r.stdout)


server = subprocess.Popen([GSOLVE, "serve", "--port", "0", "--time-limit", "2"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
line = server.stdout.readline()
url = line.split()[2] if line.startswith("gsolve serve: http") else None
if url is None:
    print("FAIL the server did not start: " + line + server.stderr.read())
    sys.exit(1)

opts = webdriver.ChromeOptions()
opts.binary_location = "/usr/bin/chromium"
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--window-size=1200,900", "--disable-extensions", "--no-first-run"):
    opts.add_argument(a)
opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
logs = []


def settle(timeout=30):
    """Waits for the page to rest (body data-ready=1); returns its data."""
    WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.execute_script("return document.body.dataset.ready") == "1")
    return driver.execute_script("return Object.assign({}, document.body.dataset)")


def shown_values():
    return driver.execute_script("""
      return [...document.querySelectorAll('#moves li')].map(li => ({
        move: li.dataset.move, value: li.dataset.value, score: li.dataset.score,
        plies: li.dataset.plies, cls: li.className}));""")


def page_errors(answered=("status of 503",)):
    for e in driver.get_log("browser"):
        # A 503 is the server's "not solved in time", asked for above.
        if e["level"] in ("SEVERE", "ERROR") and not (
                "Failed to load resource" in e["message"] and any(a in e["message"] for a in answered)):
            logs.append(e["message"])


def choose_game(name):
    Select(driver.find_element(By.ID, "game")).select_by_value(name)
    return settle()


def set_param(name, value):
    f = driver.find_element(By.ID, "param-" + name)
    f.clear()
    f.send_keys(value)
    check("the parameter %s is a form field" % name, f.get_attribute("value") == value)


def apply_params():
    driver.find_element(By.ID, "apply").click()
    return settle()


def fmt(x):
    return "" if x is None else str(x)


try:
    t0 = time.time()
    # ---- Tic-tac-toe, to the end, every value checked -------------------
    driver.get(url)
    st = settle()
    check("the front page opens Tic-tac-toe with an SVG board",
          driver.find_element(By.ID, "game").get_attribute("value") == "tictactoe" and
          len(driver.find_elements(By.CSS_SELECTOR, "#board-svg rect.cell")) == 9)
    moves, steps, agree = [], 0, True
    while True:
        st = settle()
        if st["ended"] == "1":
            break
        want = gs("tictactoe", "--position", " ".join(moves), "--all-moves", "--json")
        shown = shown_values()
        exp = [{"move": m["move"], "value": fmt(m["value"]), "score": fmt(m["score"]),
                "plies": fmt(m["plies"])} for m in want["moves"]]
        got = [{k: s[k] for k in ("move", "value", "score", "plies")} for s in shown]
        if sorted(exp, key=lambda m: m["move"]) != sorted(got, key=lambda m: m["move"]):
            agree = False
            check("ply %d: the values shown = --all-moves --json" % len(moves), False,
                  "%s vs %s" % (got, exp))
        letters = {"win": "win", "draw": "draw", "loss": "loss"}
        if any(letters[s["value"]] != s["cls"] for s in shown):
            agree = False
        steps += 1
        if len(moves) == 3:
            driver.save_screenshot(os.path.join(OUT, "web-tictactoe.png"))
        # Play the first best move by a click on its cell.
        best = want["best"][0]
        driver.find_element(By.CSS_SELECTOR, '#board-svg rect[data-cell="%s"]' % best).click()
        moves.append(best)
        WebDriverWait(driver, 10, 0.05).until(
            lambda d: d.execute_script("return document.body.dataset.moves") == " ".join(moves))
    check("Tic-tac-toe: %d positions, the values shown equal the command's (and their colours)" % steps,
          agree and steps == 9)
    status = driver.find_element(By.ID, "status").text
    check("Tic-tac-toe played to the end by clicks: a draw", status.startswith("Game over: Draw"), status)
    check("the position is in the URL",
          driver.execute_script("return new URLSearchParams(location.search).get('moves')") == " ".join(moves))
    driver.save_screenshot(os.path.join(OUT, "web-tictactoe-end.png"))
    if os.path.exists("/usr/bin/dot"):
        driver.find_element(By.ID, "undo").click()
        settle()
        driver.find_element(By.CSS_SELECTOR, "#tree-box summary").click()
        driver.find_element(By.ID, "tree-button").click()
        WebDriverWait(driver, 30, 0.1).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tree svg"))
        nodes = len(driver.find_elements(By.CSS_SELECTOR, "#tree svg g.node"))
        check("the tree of the last position but one, by Graphviz, in the page (%d nodes)" % nodes, nodes >= 2)
    page_errors()

    # ---- Connect Four against level 3 ------------------------------------
    st = choose_game("connect4")
    note = driver.find_element(By.ID, "note").text
    check("Connect Four 7x6: the start is not solved in the server's 2 s (said)",
          "not solved in time" in note, note)
    set_param("width", "5")
    set_param("height", "4")
    st = apply_params()
    Select(driver.find_element(By.ID, "level")).select_by_value("3")
    Select(driver.find_element(By.ID, "computer-side")).select_by_value("Red")
    ncomputer, good = 0, True
    moves = []
    while True:
        st = settle(60)
        moves = st["moves"].split() if st["moves"] else []
        # The computer's last move: one of the best of --solve --depth 3.
        if moves and len(moves) % 2 == 0:
            best = gs("connect4", "-D", "width=5", "-D", "height=4", "--position",
                      " ".join(moves[:-1]), "--solve", "--depth", "3", "--json")["best"]
            ncomputer += 1
            if moves[-1] not in best:
                good = False
                check("the computer's move %s is one of %s" % (moves[-1], best), False)
        if st["ended"] == "1":
            break
        # The person: the best column shown, by a click on the board's top row.
        shown = shown_values()
        wins = [s for s in shown if s["value"] == "win"] or [s for s in shown if s["value"] == "draw"] or shown
        col = int(wins[0]["move"])
        cell = "%s4" % "abcde"[col - 1]
        driver.find_element(By.CSS_SELECTOR, '#board-svg rect[data-cell="%s"]' % cell).click()
        WebDriverWait(driver, 10, 0.05).until(
            lambda d: len(d.execute_script("return document.body.dataset.moves").split()) > len(moves))
    status = driver.find_element(By.ID, "status").text
    check("Connect Four 5x4 against level 3: %d plies, %d computer moves, each a best one of depth 3"
          % (len(moves), ncomputer), good and ncomputer >= 3, status)
    check("the game ended (%s)" % status, status.startswith("Game over"))
    stones = len(driver.find_elements(By.CSS_SELECTOR, "#board-svg circle.stone"))
    check("every move is a stone on the SVG board (%d)" % stones, stones == len(moves))
    driver.save_screenshot(os.path.join(OUT, "web-connect4.png"))
    Select(driver.find_element(By.ID, "computer-side")).select_by_value("")
    page_errors()

    # ---- Nim: a parameter changes the board --------------------------------
    st = choose_game("nim")
    before = len(driver.find_elements(By.CSS_SELECTOR, "#board-svg line.match"))
    set_param("heaps", "2,2")
    st = apply_params()
    after = len(driver.find_elements(By.CSS_SELECTOR, "#board-svg line.match"))
    rows = len(driver.find_elements(By.CSS_SELECTOR, "#board-svg rect.entry"))
    check("Nim: heaps 1,3,5,7 draw 16 matches; heaps=2,2 redraws 4 in 2 rows",
          (before, after, rows) == (16, 4, 2), "%d %d %d" % (before, after, rows))
    check("Nim 2,2: every move a loss (a nim-sum of 0)",
          [s["value"] for s in shown_values()] == ["loss"] * 4, str(shown_values()))
    # A click on heap 2, then the menu: take 2 2.
    driver.find_elements(By.CSS_SELECTOR, "#board-svg rect.entry")[1].click()
    cands = [li.get_attribute("data-move") for li in driver.find_elements(By.CSS_SELECTOR, "#moves li.candidate")]
    check("a click on heap 2 marks its moves", cands == ["take 2 1", "take 2 2"], str(cands))
    driver.find_element(By.CSS_SELECTOR, '#moves li[data-move="take 2 2"] button').click()
    st = settle()
    check("take 2 2 played: 2 matches left", len(driver.find_elements(By.CSS_SELECTOR, "#board-svg line.match")) == 2)
    driver.save_screenshot(os.path.join(OUT, "web-nim.png"))
    page_errors()

    # ---- Kuhn poker: a strategy probability --------------------------------
    st = choose_game("kuhn")
    probs = {s.get_attribute("data-move"): s.text for s in driver.find_elements(By.CSS_SELECTOR, "#moves li")}
    check("Kuhn: the deal's chance moves with probability 1/3 shown",
          all("p=0.333" in t for t in probs.values()) and len(probs) == 3, str(probs))
    for m in ("deal Q", "deal J", "check"):
        driver.find_element(By.CSS_SELECTOR, '#moves li[data-move="%s"] button' % m).click()
        settle()
    info = driver.find_element(By.ID, "info").text
    cards = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#board-svg .entry-text")][:2]
    check("P2 to move: the page shows P2's view, P1's card hidden", info.startswith("card=[?,J]") and
          cards == ["?", "J"], "%s %s" % (info, cards))
    driver.find_element(By.ID, "strategy-button").click()
    WebDriverWait(driver, 30, 0.1).until(lambda d: d.find_elements(By.ID, "strategy-table"))
    rows = {tr.get_attribute("data-move"): float(tr.get_attribute("data-probability"))
            for tr in driver.find_elements(By.CSS_SELECTOR, "#strategy-table tr[data-move]")}
    check("Kuhn: P2 with J after a check bets with probability 1/3 (lp or CFR: %.3f)" % rows.get("bet", -1),
          abs(rows.get("bet", -1) - 1 / 3) < 0.02 and abs(sum(rows.values()) - 1) < 1e-6, str(rows))
    driver.save_screenshot(os.path.join(OUT, "web-kuhn.png"))
    # The computer as P2: a move drawn from the strategy; on a restart
    # the deal is drawn by its probabilities, then P1 (the person) moves.
    Select(driver.find_element(By.ID, "computer-side")).select_by_value("P2")
    WebDriverWait(driver, 30, 0.05).until(
        lambda d: len(d.execute_script("return document.body.dataset.moves").split(" ")) > 5)
    st = settle()
    last = st["moves"].split(" ")[-1]
    check("Kuhn: the computer as P2 plays from the strategy (%s)" % last, last in ("check", "bet"))
    driver.find_element(By.ID, "restart").click()
    WebDriverWait(driver, 30, 0.05).until(
        lambda d: d.execute_script("return document.body.dataset.toMove") == "P1" and
        d.execute_script("return document.body.dataset.ready") == "1")
    st = settle()
    deal = st["moves"].split(" ")
    check("Kuhn: with the computer playing, the deal is drawn (%s), then P1 moves" % st["moves"],
          len(deal) == 4 and deal[0] == deal[2] == "deal" and deal[1] != deal[3])
    Select(driver.find_element(By.ID, "computer-side")).select_by_value("")
    page_errors()

    # ---- every bundled game opens, drawn, and a move plays (GSOLVE_FULL) ----
    if os.environ.get("GSOLVE_FULL"):
        for name in [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#game option")]:
            st = choose_game(name)
            shapes = len(driver.find_elements(By.CSS_SELECTOR, "#board-svg rect, #board-svg circle, #board-svg line"))
            first = driver.find_elements(By.CSS_SELECTOR, "#moves li button")
            if first:
                first[0].click()
                st = settle(60)
            check("%s: drawn (%d shapes), a move played (%s)" % (name, shapes, st["moves"]),
                  shapes > 0 and (not first or st["moves"] != ""))
            # A rule's runtime error (papersoccer's --all-moves: too many
            # legal moves) is the command's, shown as the server's 422.
            page_errors(("status of 503", "status of 422"))
        driver.save_screenshot(os.path.join(OUT, "web-last.png"))
    check("no JavaScript error logged", not logs, "; ".join(logs))
    print("web test: %.1f s" % (time.time() - t0))
finally:
    driver.quit()
    server.send_signal(2)
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()
        check("the server stops on Ctrl-C", False)
    else:
        check("the server stops on Ctrl-C (exit %d)" % server.returncode, server.returncode == 0)
sys.exit(1 if failures else 0)
