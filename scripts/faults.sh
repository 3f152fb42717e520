#!/usr/bin/env bash
# Fault drills: what a crash, a full disk or a database restart does to PetSpot's data and answers.
#
#     scripts/faults.sh [--pets N] [--tries N] [--binary PATH] [--no-postgres] [--connections-only | --postgres-only]
#
# Builds petspot in release mode (unless --binary names one), writes an import file of N pets (default
# 1,000,000) and runs, on throwaway databases:
#
#   import killed      `kill -9` of `petspot import FILE` at a random moment of its run, --tries times
#                      (default 20), into a store already holding 1,000 demo pets. Afterwards the store
#                      must open (`petspot seed` reads it), pass SQLite's integrity check, its maintained
#                      count and data version must agree with its rows, and it must hold all of the file
#                      or none of it.
#   server killed      `kill -9` of `petspot serve` while four clients load it, then a restart, --tries
#                      times (at most 5): every answer before and after must be complete and correct
#                      (a listing whose totalCount is the store's count, a pet equal to itself).
#   read-only file     the import runs as a user who may not write the database: a clear error, the
#                      store unchanged. (Skipped when not run as root: it needs another user.)
#   disk full          the import runs with a file-size limit (`ulimit -f`) a little above the
#                      database's size: a clear error, the store unchanged.
#   idle and slow      20,000 sockets that send nothing and 5,000 that send a request head one byte a
#   connections        second (slowloris), opened from three processes at up to 5,000 a second each
#                      (the drill raises its own open-file limit; 25,000 sockets need about as many
#                      local ports) and held together against a server with its default timeouts and a
#                      connection limit of 10,000, while a client asks GET /health ten times a second
#                      on new connections: every probe must be answered 200 within 1 s (a slower one is
#                      wrong, one without an answer lost), and the server must close every held socket
#                      itself (idle timeout, request timeout, or to make room), log that the limit was
#                      reached, and be back to its own descriptors afterwards. The kernel's listen-queue
#                      overflows during the drill are reported beside.
#   HTTP/1.0           a request without keep-alive: answered, then closed by the server within 1 s.
#   postgres restart   PostgreSQL (a throwaway cluster from scripts/with-postgres.sh) shut down (fast
#                      mode) while four clients load the server, kept down 3 s and started again, --tries times
#                      (at most 5): while it is down an answer is 503 with the documented body or waits
#                      for the database (up to the store's 30 s operation timeout), none is 500 or wrong,
#                      the server answers correctly again by itself, and afterwards stops on SIGTERM
#                      within its 10 s graceful limit. (--no-postgres skips it.)
#   standby restart    the same with the server reading a streaming hot standby of that cluster
#                      (scripts/with-postgres.sh --standby), and the standby restarted: the server
#                      answers from what the standby has replayed, 503 or a wait while it is down, and
#                      recovers by itself; nothing is lost on the primary. (--no-postgres skips it.)
#
# Every answer of a load is classed right, wrong, unavailable (503 with the documented body), refused
# (no server listening) or slow (no answer within 35 s, past the store's 30 s operation timeout: counted
# as wrong). It prints a table: fault, tries, data lost, wrong answers (both must be 0), and what else
# was seen.
# Exits 1 when anything was lost or wrong. Needs python3 (standard library only) and curl; the PostgreSQL drill
# needs what scripts/with-postgres.sh needs. --connections-only runs the connection drills alone (about
# two minutes); --postgres-only the two PostgreSQL drills alone. Progress goes to standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

pets=1000000 tries=20 binary="" postgres=1 connections_only=0 postgres_only=0
while (($#)); do
    case "$1" in
        --pets) pets="$2"; shift 2 ;;
        --tries) tries="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        --no-postgres) postgres=0; shift ;;
        --connections-only) connections_only=1; shift ;;
        --postgres-only) postgres_only=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "faults: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[[ "$pets" =~ ^[1-9][0-9]*$ ]] || { echo "faults: --pets must be a whole number of at least 1" >&2; exit 2; }
[[ "$tries" =~ ^[1-9][0-9]*$ ]] || { echo "faults: --tries must be a whole number of at least 1" >&2; exit 2; }
command -v python3 >/dev/null || { echo "faults: needs python3" >&2; exit 2; }
if [[ -z "$binary" ]]; then
    echo "== building petspot (release)" >&2
    swift build -c release --product petspot >&2
    binary="$(swift build -c release --show-bin-path)/petspot"
fi
[[ -x "$binary" ]] || { echo "faults: $binary is not an executable" >&2; exit 2; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

work="$(mktemp -d "${TMPDIR:-/tmp}/petspot-faults.XXXXXX")"
chmod 755 "$work"
server=""
cleanup() {
    [[ -n "$server" ]] && kill -9 "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
results="$work/results.tsv"
: > "$results"

# The drills' Python: the import file, the store check, and a load that checks every answer.
cat > "$work/drill.py" <<'PY'
import json, random, sqlite3, sys, threading, time, urllib.error, urllib.request

def write_feed(path, count):
    """`count` valid pets, ids fault-0000001…, around Warsaw."""
    rng = random.Random(5)
    with open(path, "w") as out:
        out.write("[")
        for index in range(1, count + 1):
            record = {
                "id": f"fault-{index:07d}", "name": f"Pet {index}", "species": rng.choice(["dog", "cat", "rabbit"]),
                "breed": "Mixed", "sex": rng.choice(["female", "male"]), "ageMonths": rng.randrange(0, 200),
                "description": "A pet of the fault drill.", "photoURL": None,
                "shelter": {"name": "Drill Shelter", "city": "Warsaw"},
                "location": {"lat": round(52.23 + rng.uniform(-0.5, 0.5), 6), "lon": round(21.01 + rng.uniform(-0.5, 0.5), 6)},
                "publishedAt": f"2025-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}T12:00:00Z",
            }
            out.write(("," if index > 1 else "") + json.dumps(record, separators=(",", ":")))
        out.write("]")

def check_store(path, base_rows, base_version, file_rows):
    """Prints `lost`: 0 when the store is sound and holds all of the file or none of it; and what it holds."""
    con = sqlite3.connect(path)
    integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
    rows = con.execute("SELECT count(*) FROM pet").fetchone()[0]
    fault_rows = con.execute("SELECT count(*) FROM pet WHERE id LIKE 'fault-%'").fetchone()[0]
    kept, version = con.execute("SELECT pets, version FROM pet_stats").fetchone()
    con.close()
    problems = []
    if integrity != "ok": problems.append(f"integrity: {integrity}")
    if kept != rows: problems.append(f"maintained count {kept} but {rows} rows")
    if fault_rows not in (0, file_rows): problems.append(f"{fault_rows} of the file's {file_rows} pets")
    if rows != base_rows + fault_rows: problems.append(f"{rows} rows, {base_rows} before")
    if fault_rows == 0 and version != base_version: problems.append("version moved, nothing imported")
    if fault_rows == file_rows and version == base_version: problems.append("version unmoved, all imported")
    print(json.dumps({"lost": 1 if problems else 0, "all": fault_rows == file_rows, "problems": problems}))

def load(base, seconds, expected_total, ids, fault_at, fault_command, out_path):
    """Four clients for `seconds`; at `fault_at` s, runs `fault_command` (a shell line). Every answer is
    classed: right, wrong (a 200 that is not complete and correct, a 500, anything unexpected),
    unavailable (503 with the documented body), refused (no server listening)."""
    import subprocess
    counts = {"right": 0, "wrong": 0, "unavailable": 0, "refused": 0, "slow": 0}
    wrong_examples = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    def one(rng):
        kind = rng.randrange(3)
        if kind == 0: path = "/api/pets?limit=20"
        elif kind == 1: path = f"/api/pets?lat={52.23 + rng.uniform(-0.3, 0.3):.2f}&lon={21.01 + rng.uniform(-0.3, 0.3):.2f}"
        else: path = "/api/pets/" + rng.choice(ids)
        try:
            with urllib.request.urlopen(base + path, timeout=35) as response:
                body = json.loads(response.read())
                if kind == 0:
                    ok = body["pagination"]["totalCount"] == expected_total and len(body["animals"]) == 20
                elif kind == 1:
                    ok = isinstance(body["animals"], list) and body["pagination"]["totalCount"] >= len(body["animals"])
                    ok = ok and all(a["distanceKm"] is not None for a in body["animals"])
                else:
                    ok = body["id"] == path.rsplit("/", 1)[1]
                return "right" if ok else ("wrong", f"{path}: incomplete or incorrect body")
        except urllib.error.HTTPError as error:
            try:
                detail = json.loads(error.read())["error"]
            except Exception:
                detail = {}
            if error.code == 503 and detail.get("code") == "unavailable" and error.headers.get("Retry-After"):
                return "unavailable"
            return ("wrong", f"{path}: {error.code} {detail}")
        except TimeoutError:
            return "slow"
        except urllib.error.URLError as error:
            return "slow" if isinstance(error.reason, TimeoutError) else "refused"
        except (ConnectionError, OSError):
            return "refused"
        except Exception as error:
            return ("wrong", f"{path}: {error!r}")
    def client(seed):
        rng = random.Random(seed)
        while time.monotonic() < stop:
            result = one(rng)
            with lock:
                if isinstance(result, tuple):
                    counts["wrong"] += 1
                    if len(wrong_examples) < 5: wrong_examples.append(result[1])
                else:
                    counts[result] += 1
            if result == "refused": time.sleep(0.05)
    threads = [threading.Thread(target=client, args=(seed,)) for seed in range(4)]
    for thread in threads: thread.start()
    time.sleep(fault_at)
    subprocess.run(fault_command, shell=True, check=True)
    for thread in threads: thread.join()
    counts["examples"] = wrong_examples
    with open(out_path, "w") as out: json.dump(counts, out)

if __name__ == "__main__":
    command = sys.argv[1]
    if command == "feed": write_feed(sys.argv[2], int(sys.argv[3]))
    elif command == "check": check_store(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    elif command == "load":
        load(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split(","), float(sys.argv[6]), sys.argv[7], sys.argv[8])
PY

row() { # FAULT TRIES LOST WRONG NOTE
    printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"
}

report() {
    python3 - "$results" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
print(f"{'fault':<32}{'tries':>6}{'data lost':>11}{'wrong answers':>15}  notes")
for fault, tries, lost, wrong, note in rows:
    print(f"{fault:<32}{tries:>6}{lost:>11}{wrong:>15}  {note}")
bad = sum(int(lost) + int(wrong) for _, _, lost, wrong, _ in rows)
sys.exit(1 if bad else 0)
PY
}

sql() { python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$@"; }

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

if ((!postgres_only)); then
# --- idle and slow connections --------------------------------------------------------------------
cat > "$work/connections.py" <<'PY'
import json, os, resource, selectors, socket, subprocess, sys, time

def raise_open_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

def hold(port, count, kind, seconds, out_path):
    """Opens `count` sockets and holds them up to `seconds`: `idle` ones send nothing, `slow` ones send a
    request head one byte a second. Notes which the server closed, and when."""
    raise_open_file_limit()
    sockets, failed = [], 0
    opening = time.monotonic()
    for index in range(count):
        # At most 5,000 connections a second from each process: faster, the kernel's queue of accepted
        # connections (net.core.somaxconn) overflows and drops handshakes, the probe's among them,
        # whatever the server does; the drill counts those overflows (ListenOverflows) apart.
        ahead = opening + index / 5000 - time.monotonic()
        if ahead > 0:
            time.sleep(ahead)
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.setblocking(False)
            sockets.append(sock)
        except OSError:
            failed += 1
    started = time.monotonic()
    selector = selectors.DefaultSelector()
    for sock in sockets:
        selector.register(sock, selectors.EVENT_READ)
    still_open, answered, last_closed = set(sockets), 0, None
    head = b"GET /health HTTP/1.1\r\nHost: drill\r\nX-Slow: " + b"a" * 10000
    sent, next_byte = 0, started
    while still_open and time.monotonic() < started + seconds:
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if data:
                answered += 1
                continue
            selector.unregister(sock)
            sock.close()
            still_open.discard(sock)
            last_closed = round(time.monotonic() - started, 1)
        if kind == "slow" and time.monotonic() >= next_byte:
            for sock in still_open:
                try:
                    sock.send(head[sent:sent + 1])
                except OSError:
                    pass
            sent, next_byte = sent + 1, next_byte + 1
    with open(out_path, "w") as out:
        json.dump({"kind": kind, "opened": len(sockets), "failed": failed, "stillOpen": len(still_open),
                   "answered": answered, "lastClosedAfter": last_closed}, out)

def probe(port):
    """One GET /health on a new connection: 'right' (200 within 1 s), 'slow', or 'lost'."""
    started = time.monotonic()
    answer = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: drill\r\nConnection: close\r\n\r\n")
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
    except OSError:
        return "lost", time.monotonic() - started
    elapsed = time.monotonic() - started
    if not (answer.startswith(b"HTTP/1.1 200") and answer.endswith(b'{"status":"ok"}')):
        return "lost", elapsed
    return ("right" if elapsed < 1 else "slow"), elapsed

def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))

def listen_overflows():
    """The kernel's count of connections dropped because a listening socket's queue was full."""
    with open("/proc/net/netstat") as table:
        lines = [line.split() for line in table if line.startswith("TcpExt:")]
    return int(dict(zip(lines[0], lines[1])).get("ListenOverflows", 0))

def drill(port, pid, hold_seconds, out_path):
    here = os.path.dirname(os.path.abspath(__file__))
    before, overflows = descriptors(pid), listen_overflows()
    plan = [(10000, "idle"), (10000, "idle"), (5000, "slow")]
    holders = [
        subprocess.Popen([sys.executable, __file__, "hold", str(port), str(count), kind, str(hold_seconds), f"{here}/hold-{index}.json"])
        for index, (count, kind) in enumerate(plan)
    ]
    counts, worst, most_descriptors = {"right": 0, "slow": 0, "lost": 0}, 0.0, before
    while any(holder.poll() is None for holder in holders):
        verdict, elapsed = probe(port)
        counts[verdict] += 1
        worst = max(worst, elapsed)
        most_descriptors = max(most_descriptors, descriptors(pid))
        time.sleep(0.1)
    held = [json.load(open(f"{here}/hold-{index}.json")) for index in range(len(plan))]
    time.sleep(1)
    with open(out_path, "w") as out:
        json.dump({"probes": counts, "worstProbeSeconds": round(worst, 3), "held": held, "descriptorsBefore": before,
                   "descriptorsAfter": descriptors(pid), "mostDescriptors": most_descriptors,
                   "listenOverflows": listen_overflows() - overflows}, out)

def http10(port, out_path):
    """An HTTP/1.0 request without keep-alive: answered, then closed by the server within 1 s."""
    answer, closed = b"", False
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /health HTTP/1.0\r\n\r\n")
        started = time.monotonic()
        sock.settimeout(1)
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    closed = True
                    break
                answer += data
        except OSError:
            pass
    with open(out_path, "w") as out:
        json.dump({"answered": answer.startswith(b"HTTP/1.1 200") and answer.endswith(b'{"status":"ok"}'),
                   "closed": closed, "seconds": round(time.monotonic() - started, 3)}, out)

if __name__ == "__main__":
    command = sys.argv[1]
    if command == "hold": hold(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), sys.argv[6])
    elif command == "drill": drill(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5])
    elif command == "http10": http10(int(sys.argv[2]), sys.argv[3])
PY

echo "== 20,000 idle and 5,000 slow connections held against the server" >&2
"$binary" seed --demo 100 --database "$work/connections.sqlite" >&2
port="$(free_port)"
# A limit below the sockets held, whatever this machine's open-file limit makes the default: the drill
# must see connections closed to make room.
"$binary" serve --port "$port" --database "$work/connections.sqlite" --max-connections 10000 > "$work/connections.log" 2>&1 &
server=$!
for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
# Held past the default timeouts (60 s idle, 20 s for a request), so that the server must free every one.
python3 "$work/connections.py" drill "$port" "$server" 75 "$work/connections.json"
echo "   $(cat "$work/connections.json")" >&2
warnings="$(grep -c 'connection limit reached' "$work/connections.log" || true)"
IFS=$'\t' read -r lost wrong note < <(python3 - "$work/connections.json" "$warnings" <<'PY'
import json, sys
result, warnings = json.load(open(sys.argv[1])), int(sys.argv[2])
probes = result["probes"]
kept = sum(held["stillOpen"] for held in result["held"])
failed = sum(held["failed"] for held in result["held"])
answered = sum(held["answered"] for held in result["held"])
freed = result["descriptorsAfter"] <= result["descriptorsBefore"] + 2
wrong = probes["slow"] + (0 if freed else 1) + (1 if kept else 0) + answered + (0 if warnings >= 1 else 1)
print(probes["lost"], wrong,
      f"{probes['right']} probes right, slowest {result['worstProbeSeconds']} s; {failed} held sockets not opened, "
      f"{kept} left open by the server; server descriptors {result['descriptorsBefore']} before, "
      f"at most {result['mostDescriptors']}, {result['descriptorsAfter']} after; {warnings} limit warnings; "
      f"{result['listenOverflows']} listen-queue overflows", sep="\t")
PY
)
row "idle and slow connections" 1 "$lost" "$wrong" "$note"

python3 "$work/connections.py" http10 "$port" "$work/http10.json"
IFS=$'\t' read -r wrong note < <(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(0 if r["answered"] and r["closed"] else 1, ("answered" if r["answered"] else "not answered") + (" and closed" if r["closed"] else " but left open") + " after %s s" % r["seconds"], sep="\t")' "$work/http10.json")
row "HTTP/1.0 answered and closed" 1 0 "$wrong" "$note"
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
server=""
if ((connections_only)); then report; exit; fi

# A base store: 1,000 demo pets; each drill works on its own copy.
echo "== writing an import file of $pets pets" >&2
python3 "$work/drill.py" feed "$work/feed.json" "$pets"
"$binary" seed --demo 1000 --database "$work/base.sqlite" >&2
base_rows="$(sql "$work/base.sqlite" "SELECT count(*) FROM pet")"
base_version="$(sql "$work/base.sqlite" "SELECT version FROM pet_stats")"
copy_base() { rm -f "$1" "$1-wal" "$1-shm" "$1.lock"; cp "$work/base.sqlite" "$1"; }

# --- import killed --------------------------------------------------------------------------------
echo "== timing one whole import" >&2
copy_base "$work/whole.sqlite"
started=$(date +%s%N)
"$binary" import "$work/feed.json" --database "$work/whole.sqlite" >&2
import_ms=$(( ($(date +%s%N) - started) / 1000000 ))
whole="$(python3 "$work/drill.py" check "$work/whole.sqlite" "$base_rows" "$base_version" "$pets")"
[[ "$whole" == *'"all": true'* && "$whole" == *'"lost": 0'* ]] || { echo "faults: the uninterrupted import is wrong: $whole" >&2; exit 1; }
echo "   $import_ms ms" >&2

lost=0 wrong=0 none=0 all=0 during_write=0
for try in $(seq 1 "$tries"); do
    copy_base "$work/killed.sqlite"
    delay_ms=$(( (RANDOM * 32768 + RANDOM) % (import_ms * 11 / 10 + 1) ))
    "$binary" import "$work/feed.json" --database "$work/killed.sqlite" >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    # Pages reach the write-ahead log once the transaction outgrows SQLite's page cache (64 MiB), or at
    # its commit: a log larger than its header means the kill came during the write.
    [[ -f "$work/killed.sqlite-wal" ]] && (( $(stat -c %s "$work/killed.sqlite-wal") > 32 )) && during_write=$((during_write + 1))
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    if ! "$binary" seed --demo 1 --database "$work/killed.sqlite" >/dev/null 2>&1; then
        lost=$((lost + 1)); echo "   try $try: the store does not open after the kill" >&2; continue
    fi
    verdict="$(python3 "$work/drill.py" check "$work/killed.sqlite" "$base_rows" "$base_version" "$pets")"
    [[ "$verdict" == *'"lost": 0'* ]] || { lost=$((lost + 1)); echo "   try $try after ${delay_ms} ms: $verdict" >&2; }
    if [[ "$verdict" == *'"all": true'* ]]; then all=$((all + 1)); else none=$((none + 1)); fi
    echo "   try $try: killed after ${delay_ms} ms: $verdict" >&2
done
row "import killed (kill -9)" "$tries" "$lost" 0 "$none none, $all all; $during_write killed while writing; whole import $import_ms ms"

# --- read-only file and full disk ----------------------------------------------------------------
expect_refusal() { # NAME DATABASE MESSAGE-PATTERN COMMAND...: the import must fail, naming the cause, and change nothing
    local name="$1" db="$2" pattern="$3" output status verdict lost=0
    shift 3
    set +e
    output="$("$@" 2>&1)"
    status=$?
    set -e
    verdict="$(python3 "$work/drill.py" check "$db" "$base_rows" "$base_version" "$pets")"
    if ((status == 0)) || [[ "$verdict" != *'"lost": 0'* || "$verdict" == *'"all": true'* ]]; then lost=1; fi
    local message
    message="$(printf '%s\n' "$output" | grep -m1 -E "$pattern" || true)"
    [[ -n "$message" ]] || { lost=1; echo "   $name: no clear error: $output" >&2; }
    echo "   $name: exit $status: ${message:0:160}" >&2
    row "$name" 1 "$lost" 0 "exit $status: ${message:0:90}"
}

if [[ "$(id -u)" == 0 ]] && id -u nobody >/dev/null 2>&1 && runuser -u nobody -- test -x "$binary"; then
    echo "== import into a database its user may not write" >&2
    # The folder is the user's (the lock file can be made), the database file is not.
    mkdir -p "$work/readonly"
    copy_base "$work/readonly/pets.sqlite"
    chown nobody "$work/readonly"; chmod 644 "$work/readonly/pets.sqlite" "$work/feed.json"
    expect_refusal "read-only database" "$work/readonly/pets.sqlite" "may not be written|cannot be opened|cannot create or lock" \
        runuser -u nobody -- "$binary" import "$work/feed.json" --database "$work/readonly/pets.sqlite"
else
    row "read-only database" 0 0 0 "skipped: needs root, and a binary the user nobody may run, to import as another user"
fi

echo "== import with the disk full" >&2
copy_base "$work/full.sqlite"
limit_kb=$(( $(stat -c %s "$work/full.sqlite") / 1024 + 2048 ))
expect_refusal "disk full" "$work/full.sqlite" "disk is full|may not grow" \
    bash -c 'trap "" XFSZ; ulimit -f "$1"; shift; exec "$@"' _ "$limit_kb" "$binary" import "$work/feed.json" --database "$work/full.sqlite"

# --- server killed under load ----------------------------------------------------------------------
server_tries=$(( tries < 5 ? tries : 5 ))
total="$(sql "$work/whole.sqlite" "SELECT count(*) FROM pet")"
ids="$(python3 -c 'import sqlite3, sys; print(",".join(r[0] for r in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM pet ORDER BY random() LIMIT 200")))' "$work/whole.sqlite")"
port="$(free_port)"
start_server() { # DATABASE
    "$binary" serve --port "$port" --database "$1" >> "$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 600); do
        curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "faults: the server did not start; its log:" >&2; cat "$work/server.log" >&2; exit 1
}
echo "== kill -9 of the server under load, $server_tries times" >&2
lost=0 wrong=0 notes=""
for try in $(seq 1 "$server_tries"); do
    start_server "$work/whole.sqlite"
    printf '%s\n' "kill -9 $server; sleep 1; \"$binary\" serve --port $port --database \"$work/whole.sqlite\" >> \"$work/server.log\" 2>&1 & echo \$! > \"$work/restarted.pid\"" > "$work/kill.sh"
    python3 "$work/drill.py" load "http://127.0.0.1:$port" 8 "$total" "$ids" 3 "bash $work/kill.sh" "$work/load.json"
    server="$(cat "$work/restarted.pid")"
    counts="$(cat "$work/load.json")"
    echo "   try $try: $counts" >&2
    wrong=$((wrong + $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["wrong"])' "$work/load.json")))
    # The restarted server answers completely, whatever the load saw after the restart.
    listing_ok=0
    for _ in $(seq 1 600); do
        if curl -sf "http://127.0.0.1:$port/api/pets" | python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["pagination"]["totalCount"] != int(sys.argv[1]))' "$total" 2>/dev/null; then
            listing_ok=1; break
        fi
        sleep 0.1
    done
    ((listing_ok)) || { wrong=$((wrong + 1)); echo "   try $try: the restarted server never answered the listing correctly" >&2; }
    # The restarted server is not this shell's child: stop it and wait until its port is free.
    kill "$server" 2>/dev/null || true
    for _ in $(seq 1 300); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$server" 2>/dev/null || true
    server=""
    after="$(sql "$work/whole.sqlite" "SELECT count(*) FROM pet")"
    ((after == total)) || lost=$((lost + 1))
    notes="$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); print(c["right"], "right,", c["refused"], "refused while down")' "$work/load.json")"
done
row "server killed under load" "$server_tries" "$lost" "$wrong" "last try: $notes"

fi  # postgres_only
server_tries=$(( tries < 5 ? tries : 5 ))

# --- PostgreSQL (or its standby) restarted under load ----------------------------------------------
if ((postgres)); then
    cat > "$work/postgres-drill.sh" <<'SH'
set -euo pipefail
binary="$1" work="$2" port="$3" tries="$4" target="$5"
"$binary" seed --demo 20000 --database "$PETSPOT_POSTGRES_URL" >&2
total="$(psql "$PETSPOT_POSTGRES_URL" -tA -c 'SELECT count(*) FROM pet')"
ids="$(psql "$PETSPOT_POSTGRES_URL" -tA -c "SELECT string_agg(id, ',') FROM (SELECT id FROM pet ORDER BY random() LIMIT 200) s")"
serve_url="$PETSPOT_POSTGRES_URL" restart="$PETSPOT_POSTGRES_RESTART" label="postgres restarted under load"
if [[ "$target" == standby ]]; then
    serve_url="$PETSPOT_POSTGRES_STANDBY_URL" restart="$PETSPOT_POSTGRES_STANDBY_RESTART" label="standby restarted under load"
    # Committed once the standby has applied it, and so everything before it: the seed is replayed.
    psql "$PETSPOT_POSTGRES_URL" -q -c "BEGIN; SET LOCAL synchronous_commit = remote_apply; UPDATE pet_stats SET pets = pets; COMMIT;"
fi
"$binary" serve --port "$port" --database "$serve_url" >> "$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
wrong=0 unavailable=0 right=0 slow=0
for try in $(seq 1 "$tries"); do
    python3 "$work/drill.py" load "http://127.0.0.1:$port" 12 "$total" "$ids" 2 "\"$restart\" 3" "$work/pg-load.json"
    echo "   try $try: $(cat "$work/pg-load.json")" >&2
    read -r w u r s < <(python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); print(c["wrong"], c["unavailable"], c["right"], c["slow"])' "$work/pg-load.json")
    wrong=$((wrong + w + s)) unavailable=$((unavailable + u)) right=$((right + r)) slow=$((slow + s))
    # Recovered by itself: a listing right after the load must be complete again.
    curl -sf "http://127.0.0.1:$port/api/pets" | python3 -c 'import json, sys; b = json.load(sys.stdin); sys.exit(b["pagination"]["totalCount"] != int(sys.argv[1]))' "$total" \
        || { wrong=$((wrong + 1)); echo "   try $try: not recovered" >&2; }
done
after="$(psql "$PETSPOT_POSTGRES_URL" -tA -c 'SELECT count(*) FROM pet')"
lost=$(( after == total ? 0 : 1 ))
kill "$server" 2>/dev/null || true
stopped=""
for tenth in $(seq 1 300); do
    kill -0 "$server" 2>/dev/null || { stopped="$tenth"; break; }
    sleep 0.1
done
stop_note="stopped $((stopped / 10)).$((stopped % 10)) s after SIGTERM"
if [[ -z "$stopped" ]]; then
    kill -9 "$server" 2>/dev/null || true; stop_note="still running 30 s after SIGTERM"
fi
if [[ -z "$stopped" ]] || ((stopped > 110)); then
    wrong=$((wrong + 1)); stop_note="$stop_note (past its 10 s graceful limit)"
    echo "   the server did not stop within its 10 s graceful limit: $stop_note" >&2
fi
printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$tries" "$lost" "$wrong" "$unavailable answered 503 while down, $slow unanswered in 35 s, $right right; $stop_note" >> "$work/results.tsv"
SH
    echo "== PostgreSQL restarted under load, $server_tries times" >&2
    if ! scripts/with-postgres.sh bash "$work/postgres-drill.sh" "$binary" "$work" "$(free_port)" "$server_tries" primary; then
        row "postgres restarted under load" 0 0 1 "the drill could not run (see above)"
    fi
    echo "== PostgreSQL standby restarted under load, $server_tries times" >&2
    if ! scripts/with-postgres.sh --standby bash "$work/postgres-drill.sh" "$binary" "$work" "$(free_port)" "$server_tries" standby; then
        row "standby restarted under load" 0 0 1 "the drill could not run (see above)"
    fi
fi

report
