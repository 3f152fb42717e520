#!/usr/bin/env bash
# The pets API under load, measured by wrk on loopback (petspot's own HTTP client would measure
# itself more than the server):
#
#     scripts/bench-http.sh [--pets N] [--duration SECONDS] [--connections C] [--threads T] [--binary PATH]
#                           [--database postgres://USER@HOST:PORT/DB | --both]
#     scripts/bench-http.sh --soak SECONDS [--pets N] [--connections C] [--threads T] [--binary PATH]
#
# Builds petspot in release mode (unless --binary names one), seeds N demo pets (default 1,000,000)
# into a temporary SQLite file — or, with --database, into that PostgreSQL database (seeding adds
# only the demo pets it lacks) — and serves it twice on free ports of 127.0.0.1: as `petspot serve` does by
# default, and with every response cache switched off (--response-cache-entries 0). With --both it
# measures the SQLite store and then the PostgreSQL one in one run and prints one table: the database
# is PETSPOT_POSTGRES_URL, or a throwaway cluster that scripts/with-postgres.sh starts around the run.
# It drives each kind of request with `wrk -t T -c C -d SECONDS --latency` (defaults 2, 16, 10), one
# after another:
#
#   default server
#     health       GET /health: the server's floor (routing, JSON, HTTP), the ratios' denominator
#     listing      GET /api/pets: the listing without coordinates, as everyone without location gets it
#     revalidate   GET /api/pets with If-None-Match of its current ETag: 304 Not Modified
#   no response cache
#     health       the same floor, for this server's ratios
#     listing      every listing queried and encoded
#     nearby       GET /api/pets?lat=…&lon=… from 4,096 random points around the demo cities at
#                  2 decimals, each queried and encoded
#     dogs         the same points with species=dog: "dogs near me"
#     filtered     the same points with a filter (one or two species, sometimes a sex or age band),
#                  half of them newest first (sort=recent), each queried and encoded
#     places       GET /api/places?q=… with one- to four-letter prefixes of 4,096 real city names
#                  (cities of 15,000 inhabitants or more in the bundled gazetteer), as a person types
#
# and prints requests/s, p50 and p99 latency per store and kind and each kind's ratio to its own
# server's health. Then, with the servers stopped, it runs the nearby, dogs and filtered queries on the
# store alone, at the same concurrency (-c), and prints each HTTP kind's ratio to that ("vs engine"):
# on SQLite `petspot bench engine` runs the store's own query for each path in process (the server's
# code without HTTP); on PostgreSQL `pgbench -f` runs the exact statement the server sends for each of
# 128 of the same points (pgbench takes at most 128 scripts; every 32nd point), with -j T.
#
# --soak SECONDS instead loads one default SQLite server for that long with a mix of the listing,
# nearby and filtered queries while `petspot import` runs beside it every 5 s (1,000 new pets and 200
# of the earlier ones adopted each time), and prints the requests, every error (HTTP and socket), the
# imports done and failed, and the server's resident memory (RSS, and of it its own anonymous memory) at
# the start, the middle and the end.
# Needs wrk (Debian: apt-get install wrk) and python3. wrk and the server share this machine's cores:
# compare ratios, not absolute figures, across machines. Numbers go to standard output; progress to
# standard error.
set -euo pipefail
cd "$(dirname "$0")/.."

pets=1000000 duration=10 connections=16 threads=2 binary="" database="" both=0 soak=0
while (($#)); do
    case "$1" in
        --pets) pets="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        --database) database="$2"; shift 2 ;;
        --both) both=1; shift ;;
        --soak) soak="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-http: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[[ "$pets" =~ ^[1-9][0-9]*$ ]] || { echo "bench-http: --pets must be a whole number ≥ 1, not \"$pets\"" >&2; exit 2; }
[[ "$duration" =~ ^[1-9][0-9]*$ ]] || { echo "bench-http: --duration must be whole seconds ≥ 1, not \"$duration\"" >&2; exit 2; }
if [[ -n "$database" && ! "$database" =~ ^postgres(ql)?:// ]]; then
    echo "bench-http: --database must be a postgres:// URL (SQLite is measured in a temporary file), not \"$database\"" >&2; exit 2
fi
if ((both)) && [[ -n "$database" ]]; then echo "bench-http: give --both or --database, not both" >&2; exit 2; fi
[[ "$soak" =~ ^[0-9]+$ ]] && { ((soak == 0)) || ((soak >= 20)); } \
    || { echo "bench-http: --soak must be whole seconds, at least 20, not \"$soak\"" >&2; exit 2; }
if ((soak)) && { ((both)) || [[ -n "$database" ]]; }; then
    echo "bench-http: --soak measures the SQLite store alone; leave out --both and --database" >&2; exit 2
fi
if ((both)) && [[ -z "${PETSPOT_POSTGRES_URL:-}" ]]; then
    # A throwaway PostgreSQL around this same run; the script comes back here with its URL set.
    exec scripts/with-postgres.sh "$0" --pets "$pets" --duration "$duration" --connections "$connections" \
        --threads "$threads" ${binary:+--binary "$binary"} --both
fi
tools=(wrk curl python3)
if ((both)) || [[ -n "$database" ]]; then tools+=(pgbench); fi
for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null || { echo "bench-http: $tool not found (Debian: apt-get install $tool)" >&2; exit 2; }
done

if [[ -z "$binary" ]]; then
    echo "== release build" >&2
    swift build -c release --product petspot >&2
    binary="$(swift build -c release --show-bin-path)/petspot"
fi

work="$(mktemp -d)"
servers=()
cleanup() {
    for pid in "${servers[@]}"; do
        kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

serve() { # NAME VARIABLE DATABASE [serve options...]: starts a server, waits for it, sets VARIABLE to its URL
    local name="$1" variable="$2" store="$3" port
    shift 3
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    "$binary" serve --port "$port" --database "$store" "$@" > "$work/$name.log" 2>&1 &
    servers+=($!)
    for _ in $(seq 1 300); do
        curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
        sleep 0.1
    done
    curl -sf "http://127.0.0.1:$port/health" >/dev/null || { echo "bench-http: the $name server did not come up:" >&2; cat "$work/$name.log" >&2; exit 1; }
    printf -v "$variable" '%s' "http://127.0.0.1:$port"
}

stop_servers() {
    for pid in "${servers[@]}"; do
        kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    done
    servers=()
}

# Random points around the demo cities (the centres in Sources/PetServer/DemoCity.swift), rounded to
# 2 decimals as the app sends them, without and with filters; the same sequence on every run.
python3 - "$work/nearby.lua" "$work/filtered.lua" "$work/dogs.lua" <<'PY'
# Beside each NAME.lua, NAME.txt: the same paths, one per line, for `petspot bench engine`.
import random, re, sys
source = open("Sources/PetServer/DemoCity.swift", encoding="utf-8").read()
cities = [(float(lat), float(lon)) for lat, lon in re.findall(r"lat: (-?[\d.]+), lon: (-?[\d.]+)", source)]
if not cities:
    sys.exit("bench-http: no demo cities found in DemoCity.swift")
rng = random.Random(7)
nearby, filtered = [], []
for _ in range(4096):
    lat, lon = rng.choice(cities)
    nearby.append(f"/api/pets?lat={lat + rng.uniform(-0.3, 0.3):.2f}&lon={lon + rng.uniform(-0.3, 0.3):.2f}")
    species = ",".join(rng.sample(["dog", "cat", "rabbit", "bird", "other"], rng.choice([1, 2])))
    extra = rng.choice(["", "", "&sex=female", "&age=baby,young", "&age=senior"])
    filtered.append(nearby[-1] + f"&species={species}{extra}" + rng.choice(["", "&sort=recent"]))
dogs = [path + "&species=dog" for path in nearby]
for path, paths in ((sys.argv[1], nearby), (sys.argv[2], filtered), (sys.argv[3], dogs)):
    with open(path, "w") as out:
        out.write("local paths = {\n" + ",\n".join(f'  "{p}"' for p in paths) + "\n}\n")
        out.write("local i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(\"GET\", paths[i])\nend\n")
    with open(path[:-4] + ".txt", "w") as out:
        out.write("\n".join(paths) + "\n")
PY

# Prefixes of real city names, as typed (lowercase, one to four letters), percent-encoded.
python3 - "$work/places.lua" <<'PY'
import random, sys, urllib.parse
names = []
with open("Sources/PetServer/Resources/places.tsv", encoding="utf-8") as file:
    next(file)
    for line in file:
        fields = line.rstrip("\n").split("\t")
        if fields[0].startswith("geonames:") and int(fields[6]) >= 15000:
            names.append(fields[1])
if not names:
    sys.exit("bench-http: no cities found in Sources/PetServer/Resources/places.tsv")
rng = random.Random(42)
paths = []
for _ in range(4096):
    name = rng.choice(names).lower()
    paths.append("/api/places?q=" + urllib.parse.quote(name[:rng.randint(1, 4)]))
with open(sys.argv[1], "w") as out:
    out.write("local paths = {\n" + ",\n".join(f'  "{p}"' for p in paths) + "\n}\n")
    out.write("local i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(\"GET\", paths[i])\nend\n")
PY

engine() { # STORE KIND DATABASE: the kind's queries on the store alone; appends a row for server "engine"
    local store="$1" kind="$2" db="$3" line rate requests
    echo "== $store, engine: $kind" >&2
    if [[ "$db" =~ ^postgres ]]; then
        rm -rf "$work/pgbench-$kind" && mkdir -p "$work/pgbench-$kind"
        awk 'NR % 32 == 1' "$work/$kind.txt" > "$work/$kind-128.txt"
        "$binary" bench engine --database "$db" --paths "$work/$kind-128.txt" --pgbench-dir "$work/pgbench-$kind" >&2
        local scripts=()
        for file in "$work/pgbench-$kind"/*.sql; do scripts+=(-f "$file"); done
        pgbench -n -M extended -c "$connections" -j "$threads" -T "$duration" "${scripts[@]}" "$db" > "$work/$store-engine-$kind.txt" 2>&1 \
            || { cat "$work/$store-engine-$kind.txt" >&2; exit 1; }
        python3 - "$store" "$kind" "$work/$store-engine-$kind.txt" >> "$work/results.tsv" <<'PY'
import re, sys
store, kind, text = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", text)
latency = re.search(r"latency average = ([\d.]+) ms", text)
failed = re.search(r"number of failed transactions: (\d+)", text)
print(f"{store}\tengine\t{kind}\t{float(tps.group(1)) if tps else float('nan')}\t{float(latency.group(1)) if latency else float('nan')}\tnan\t{failed.group(1) if failed else 0}")
PY
    else
        # As many queries as the HTTP kind answered in its run, so that the two last about as long.
        requests="$(awk -F'\t' -v s="$store" -v k="$kind" '$1 == s && $2 == "uncached" && $3 == k { printf "%d", $4 * '"$duration"' }' "$work/results.tsv")"
        line="$("$binary" bench engine --database "$db" --paths "$work/$kind.txt" --concurrency "$connections" --requests "${requests:-20000}")"
        read -r _ rate p50 p99 <<< "$line"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$store" engine "$kind" "$rate" "$p50" "$p99" 0 >> "$work/results.tsv"
    fi
}

measure() { # STORE SERVER KIND URL [wrk options...]
    local store="$1" server="$2" kind="$3" url="$4"
    shift 4
    echo "== $store, $server: $kind" >&2
    wrk -t "$threads" -c "$connections" -d "${duration}s" --latency "$@" "$url" > "$work/$store-$server-$kind.txt"
    python3 - "$store" "$server" "$kind" "$work/$store-$server-$kind.txt" >> "$work/results.tsv" <<'PY'
import re, sys
store, server, kind, text = sys.argv[1], sys.argv[2], sys.argv[3], open(sys.argv[4]).read()
def ms(label):
    match = re.search(rf"^\s*{label}\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    if not match:
        return float("nan")
    value, unit = float(match.group(1)), match.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
print(f"{store}\t{server}\t{kind}\t{float(rate.group(1)) if rate else float('nan')}\t{ms('50%')}\t{ms('99%')}\t{errors.group(1) if errors else 0}")
PY
}

: > "$work/results.tsv"
bench_store() { # STORE DATABASE: seeds DATABASE, serves it twice, measures every kind
    local store="$1" db="$2" base uncached etag status
    echo "== $store: seeding $pets demo pets" >&2
    "$binary" seed --demo "$pets" --database "$db" >&2
    serve "$store-default" base "$db"
    serve "$store-uncached" uncached "$db" --response-cache-entries 0
    # One nearby query first: the first reads of the index's pages are not what is measured.
    curl -sf "$uncached/api/pets?lat=52.23&lon=21.01" >/dev/null
    etag="$(curl -s -D - -o /dev/null "$base/api/pets" | tr -d '\r' | awk 'tolower($1) == "etag:" { print $2 }')"
    [[ -n "$etag" ]] || { echo "bench-http: GET /api/pets sent no ETag" >&2; exit 1; }
    # wrk counts only statuses from 400 as errors: make sure the revalidation really is a 304.
    status="$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$base/api/pets")"
    [[ "$status" == 304 ]] || { echo "bench-http: If-None-Match: $etag got $status, not 304" >&2; exit 1; }
    measure "$store" default health "$base/health"
    measure "$store" default listing "$base/api/pets"
    measure "$store" default revalidate "$base/api/pets" -H "If-None-Match: $etag"
    measure "$store" uncached health "$uncached/health"
    measure "$store" uncached listing "$uncached/api/pets"
    measure "$store" uncached nearby "$uncached/api/pets" -s "$work/nearby.lua"
    measure "$store" uncached dogs "$uncached/api/pets" -s "$work/dogs.lua"
    measure "$store" uncached filtered "$uncached/api/pets" -s "$work/filtered.lua"
    measure "$store" uncached places "$uncached/api/places" -s "$work/places.lua"
    stop_servers
    engine "$store" nearby "$db"
    engine "$store" dogs "$db"
    engine "$store" filtered "$db"
}

soak_run() { # DATABASE: the soak described at the top
    local db="$1" base pid rss_start rss_middle rss_end imports=0 failures=0 round=0
    echo "== soak: seeding $pets demo pets" >&2
    "$binary" seed --demo "$pets" --database "$db" >&2
    serve soak base "$db"
    pid="${servers[-1]}"
    python3 - "$work/nearby.lua" "$work/filtered.lua" "$work/soak.lua" <<'PY'
import re, sys
paths = []
for source in sys.argv[1:3]:
    paths += re.findall(r'"(/api/pets[^"]*)"', open(source).read())
paths = [p for pair in zip(paths[:4096], paths[4096:]) for p in pair] + ["/api/pets"] * 512
with open(sys.argv[3], "w") as out:
    out.write("local paths = {\n" + ",\n".join(f'  "{p}"' for p in paths) + "\n}\n")
    out.write("local i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(\"GET\", paths[i])\nend\n")
PY
    curl -sf "$base/api/pets?lat=52.23&lon=21.01" >/dev/null
    # Resident memory, and of it what is the server's own (anonymous): the rest is the database file,
    # which SQLite maps into memory and the kernel may drop and read again at will.
    rss() { awk '/^VmRSS/ { total = $2 } /^RssAnon/ { own = $2 } END { print total "/" own }' "/proc/$1/status"; }
    # The imports beside the load: each adds 1,000 pets and withdraws 200 added earlier.
    (
        # Stopped with TERM: the import in flight stops with it (its transaction is then not committed).
        trap 'kill $(jobs -p) 2>/dev/null; exit 0' TERM
        while true; do
            round=$((round + 1))
            python3 - "$work/feed-$round.json" "$round" <<'PY'
import json, sys
round_ = int(sys.argv[2])
records = [{"id": f"soak-{round_:05d}-{i:04d}", "name": f"Soak {i}", "species": ["dog", "cat"][i % 2], "breed": "Mixed",
            "sex": "female", "ageMonths": i % 150, "description": "A pet of the soak.", "photoURL": None,
            "shelter": {"name": "Soak Shelter", "city": "Warsaw"},
            "location": {"lat": 52.23 + (i % 100) / 400, "lon": 21.01 + (i // 100) / 40},
            "publishedAt": "2026-01-01T00:00:00Z"} for i in range(1000)]
if round_ > 1:
    records += [{"id": f"soak-{round_ - 1:05d}-{i:04d}", "status": "adopted"} for i in range(200)]
json.dump(records, open(sys.argv[1], "w"))
PY
            "$binary" import "$work/feed-$round.json" --database "$db" >> "$work/imports.log" 2>&1 &
            if wait $!; then echo ok >> "$work/imports.done"; else echo failed >> "$work/imports.done"; fi
            rm -f "$work/feed-$round.json"
            sleep 5 & wait $!
        done
    ) &
    local importer=$!
    servers+=("$importer")
    echo "== soak: $soak s of load with imports beside it" >&2
    wrk -t "$threads" -c "$connections" -d "${soak}s" --latency -s "$work/soak.lua" "$base/api/pets" > "$work/soak.txt" &
    local load=$!
    sleep $((soak / 20 + 1)); rss_start="$(rss "$pid")"
    sleep $((soak / 2 - soak / 20 - 1)); rss_middle="$(rss "$pid")"
    wait "$load"
    rss_end="$(rss "$pid")"
    kill "$importer" 2>/dev/null; wait "$importer" 2>/dev/null || true
    imports="$(grep -c ok "$work/imports.done" 2>/dev/null || true)"
    failures="$(grep -c failed "$work/imports.done" 2>/dev/null || true)"
    ((failures == 0)) || { echo "bench-http: imports failed:" >&2; tail -5 "$work/imports.log" >&2; }
    python3 - "$work/soak.txt" "$rss_start" "$rss_middle" "$rss_end" "${imports:-0}" "${failures:-0}" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
requests = re.search(r"(\d+) requests in", text)
rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
http_errors = int((re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text) or [0, 0])[1])
socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
socket_errors = sum(int(x) for x in socket.groups()) if socket else 0
socket_detail = f" (connect {socket.group(1)}, read {socket.group(2)}, write {socket.group(3)}, timeout {socket.group(4)}: wrk's 2 s)" if socket_errors else ""
p50 = re.search(r"^\s*50%\s+(\S+)", text, re.M)
p99 = re.search(r"^\s*99%\s+(\S+)", text, re.M)
mib = lambda pair: "{:.0f} MiB ({:.0f} MiB its own)".format(*(int(kb) / 1024 for kb in pair.split("/")))
print(f"requests      {int(requests.group(1)) if requests else 0:,} ({float(rate.group(1)) if rate else 0:,.0f}/s, p50 {p50.group(1) if p50 else '?'}, p99 {p99.group(1) if p99 else '?'})")
print(f"errors        {http_errors} HTTP, {socket_errors} socket{socket_detail}")
print(f"imports       {sys.argv[5]} done, {sys.argv[6]} failed")
print(f"server RSS    start {mib(sys.argv[2])}, middle {mib(sys.argv[3])}, end {mib(sys.argv[4])}")
sys.exit(1 if http_errors or socket_errors or int(sys.argv[6]) else 0)
PY
}

if ((soak)); then
    soak_run "$work/pets.sqlite"
    exit
elif ((both)); then
    bench_store SQLite "$work/pets.sqlite"
    bench_store PostgreSQL "$PETSPOT_POSTGRES_URL"
elif [[ -n "$database" ]]; then
    bench_store PostgreSQL "$database"
else
    bench_store SQLite "$work/pets.sqlite"
fi

python3 - "$work/results.tsv" "$pets" "$threads" "$connections" "$duration" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
pets, threads, connections, duration = sys.argv[2:]
health = {(store, server): float(rate) for store, server, kind, rate, *_ in rows if kind == "health"}
engine = {(store, kind): float(rate) for store, server, kind, rate, *_ in rows if server == "engine"}
print(f"petspot HTTP, {int(pets):,} pets, wrk -t{threads} -c{connections} -d{duration}s on loopback")
print("engine: the same queries on the store alone (SQLite: petspot bench engine in process; PostgreSQL: pgbench; p50 of pgbench is its mean)")
print(f"{'store':<12}{'server':<10}{'kind':<12}{'requests/s':>12}{'p50 ms':>9}{'p99 ms':>9}{'vs health':>11}{'vs engine':>11}{'errors':>8}")
for store, server, kind, rate, p50, p99, errors in rows:
    rate = float(rate)
    ratio = f"{rate / health[(store, server)]:.3f}" if (store, server) in health else "-"
    versus = f"{rate / engine[(store, kind)]:.3f}" if server == "uncached" and (store, kind) in engine else "-"
    print(f"{store:<12}{server:<10}{kind:<12}{rate:>12,.0f}{float(p50):>9.2f}{float(p99):>9.2f}{ratio:>11}{versus:>11}{int(errors):>8}")
PY
if awk -F'\t' '$7 > 0 { bad = 1 } END { exit !bad }' "$work/results.tsv"; then
    echo "bench-http: some answers were errors (see the errors column)" >&2
    exit 1
fi
