#!/usr/bin/env bash
# Checks that the service does exactly what its OpenAPI document says, with Schemathesis:
#   Scripts/contract-check.sh [VERDICT_BIN]        e.g. Scripts/contract-check.sh .build/release/verdict
#   VERDICT_BIN=/path/to/verdict Scripts/contract-check.sh
#
# 1. Starts `verdict demo` (the App Store simulator and the service wired together, SQLite in a
#    temporary folder, the repository's Rules/) on a free port; the demo plays its scenario, so
#    the service holds real subscriptions, decisions, refund requests and consent entries.
# 2. Reads the generated API token and the service's address from the demo's output, and waits
#    until the scenario has been played (the demo then says it is serving) and /readyz answers 200.
# 3. Runs Schemathesis against the document FILE of the repository
#    (Sources/VerdictService/Resources/openapi.yaml, not the copy the binary serves), with every
#    check, the bearer token, the settings of Scripts/contract-check.toml, real ids of the demo's
#    data, and a bounded number of examples per operation in deterministic mode, so the run is
#    repeatable and takes a few minutes at most on 2 cores.
# 4. Exits with Schemathesis' status: non-zero on any failure (or if the service does not start).
# The demo is stopped (SIGTERM: it removes its temporary folder) on exit, whatever happens.
#
# Settings (environment):
#   VERDICT_BIN              the verdict binary (default .build/debug/verdict; the first argument wins)
#   CONTRACT_MAX_EXAMPLES    test cases per operation in the fuzzing phase (default 100)
#   CONTRACT_WORKERS         concurrent Schemathesis workers (default 1: the service needs the other
#                            core, and with 2 workers Schemathesis 4.32.5 has been seen to fail
#                            flakily on its own while generating anyOf bodies)
#   CONTRACT_REPORT_DIR      where the JUnit report goes (default a temporary
#                            folder, removed on exit); set it to keep them
#   CONTRACT_EXTRA_ARGS      more `schemathesis run` arguments, word-split (e.g. "--max-failures 1")
set -euo pipefail
cd "$(dirname "$0")/.."

verdict=${1:-${VERDICT_BIN:-.build/debug/verdict}}
document=Sources/VerdictService/Resources/openapi.yaml
max_examples=${CONTRACT_MAX_EXAMPLES:-100}
workers=${CONTRACT_WORKERS:-1}
schemathesis_version=4.32.5

[ -x "$verdict" ] || { echo "contract-check: no executable verdict binary at '$verdict' (pass its path or set VERDICT_BIN)" >&2; exit 2; }
[ -f "$document" ] || { echo "contract-check: no OpenAPI document at $document" >&2; exit 2; }

# Schemathesis, pinned, run as `python3 -m schemathesis.cli` (so a user install off PATH works
# too): installed when python3 does not have it; another version is used with a warning.
installed=$(python3 -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null || true)
if [ -z "$installed" ]; then
    echo "== installing schemathesis $schemathesis_version"
    python3 -m pip install --quiet "schemathesis==$schemathesis_version"
elif [ "$installed" != "$schemathesis_version" ]; then
    echo "contract-check: warning: schemathesis $installed is installed; this check is pinned to $schemathesis_version" >&2
fi

work=$(mktemp -d)
report_dir=${CONTRACT_REPORT_DIR:-$work/report}
mkdir -p "$report_dir"
demo_log="$work/demo.log"
demo_pid=""

# Stops the demo (only the process this script started) and removes the scratch folder.
cleanup() {
    if [ -n "$demo_pid" ] && kill -0 "$demo_pid" 2>/dev/null; then
        kill -TERM "$demo_pid" 2>/dev/null || true
        # Graceful shutdown takes a moment; after 15 s it is killed.
        for _ in $(seq 150); do kill -0 "$demo_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$demo_pid" 2>/dev/null || true
        wait "$demo_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
    echo "contract-check: $*" >&2
    if [ -s "$demo_log" ]; then
        echo "-- the demo's output (last 40 lines):" >&2
        tail -n 40 "$demo_log" >&2
    fi
    exit 1
}

# --port 0: the service picks a free port, printed as "Verdict service  http://127.0.0.1:PORT".
echo "== starting $verdict demo"
"$verdict" demo --port 0 --rules-dir Rules >"$demo_log" 2>&1 &
demo_pid=$!

# The demo prints its banner (address, token) first, plays the scenario, then prints
# "Serving until you stop it." The API is tested only after that, so the scenario's own requests
# never race the test's. 180 s is generous: the scenario takes a few seconds.
for _ in $(seq 1800); do
    grep -q "^Serving until you stop it" "$demo_log" && break
    kill -0 "$demo_pid" 2>/dev/null || fail "the demo exited before serving"
    sleep 0.1
done
grep -q "^Serving until you stop it" "$demo_log" || fail "the demo did not finish its scenario within 180 s"
# "  both apps' token  demo-…" and "  Verdict service  http://127.0.0.1:PORT": the first of each.
# The token of both apps reaches every operation (/metrics needs a token of every app); every
# request names Lumen in `Verdict-App` (Scripts/contract-check.toml), so it acts for Lumen.
token=$(awk '$1 == "both" && $2 == "apps'"'"'" && $3 == "token" { print $4; exit }' "$demo_log")
url=$(awk '$1 == "Verdict" && $2 == "service" { print $3; exit }' "$demo_log")
[[ "$token" =~ ^[A-Za-z0-9._~+/=-]+$ ]] || fail "no API token in the demo's output"
[[ "$url" =~ ^http://[0-9.]+:[0-9]+$ ]] || fail "no service address in the demo's output"

ready=""
for _ in $(seq 300); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz")" = 200 ]; then ready=yes; break; fi
    sleep 0.1
done
[ -n "$ready" ] || fail "$url/readyz did not answer 200 within 30 s"
echo "== service ready at $url"

# Real ids for the generated requests: the settings file of the repository plus, per operation,
# dictionaries of ids the service holds (notifications, decisions, subscriptions, customers,
# purchases, catalog offers), read from its own API, and a notification body it was sent.
# Schemathesis draws each such parameter from its dictionary half of the time, so requests reach
# stored records (and their 200 bodies are checked against the document) as well as unknown ones.
config="$work/schemathesis.toml"
cp Scripts/contract-check.toml "$config"
# The demo saved the body of a notification it delivered (signed by the simulator's App Store
# key): posting it again is accepted as a duplicate.
sample=$(grep -o -- '--data-binary @[^ ]*notification\.json' "$demo_log" | head -n 1 | cut -d@ -f2 || true)
VERDICT_URL="$url" VERDICT_TOKEN="$token" VERDICT_SAMPLE="$sample" python3 - >>"$config" <<'PYTHON' || fail "could not read ids from the service"
import json, os, urllib.parse, urllib.request

base, token = os.environ["VERDICT_URL"], os.environ["VERDICT_TOKEN"]

def get(path):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token, "Verdict-App": "com.lumen.app"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)

def unique(values, limit=20):
    seen = []
    for value in values:
        if isinstance(value, str) and value and value not in seen:
            seen.append(value)
    return seen[:limit]

requests = get("/v1/consumption?limit=200")["requests"]
jobs = get("/v1/jobs?state=done&limit=500")["jobs"]
notifications = unique((job.get("notificationUUID") for job in jobs), limit=40)
chains = unique([get("/v1/notifications/" + uuid).get("originalTransactionId") for uuid in notifications]
                + [request["originalTransactionId"] for request in requests])
decisions = unique(decision["id"] for chain in chains
                   for decision in get("/v1/decisions?" + urllib.parse.urlencode({"originalTransactionId": chain}))["decisions"])
tokens = unique(request.get("appAccountToken") for request in requests)
transactions = unique(request["transactionId"] for request in requests)
offers = [offer for offer in get("/v1/rules")["offers"] if offer["type"] == "PROMOTIONAL"]

# A replay of the shipped bundle over the demo's decisions, run to its end, so the replay's
# resources are reached with a real id (and its report).
import glob, time
files = {os.path.basename(path): open(path).read()
         for pattern in ("Rules/*.rules.yaml", "Rules/*.tests.yaml", "Rules/catalog.yaml", "Rules/messages.yaml") for path in glob.glob(pattern)}
request = urllib.request.Request(base + "/v1/rules/replay", data=json.dumps({"files": files}).encode(), method="POST",
                                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/json",
                                          "Verdict-App": "com.lumen.app"})
with urllib.request.urlopen(request, timeout=30) as response:
    replay = json.load(response)["id"]
for _ in range(300):
    if get("/v1/rules/replay/" + replay)["state"] in ("done", "failed", "cancelled"):
        break
    time.sleep(0.1)
dictionaries = {
    "notifications": notifications, "chains": chains, "decisions": decisions, "tokens": tokens,
    "transactions": transactions, "offerIds": unique(offer["id"] for offer in offers),
    "productIds": unique(product for offer in offers for product in offer["productIds"]),
    "replays": [replay],
    "signedPayloads": [json.load(open(os.environ["VERDICT_SAMPLE"]))["signedPayload"]] if os.environ["VERDICT_SAMPLE"] else [],
}
# Operation (method and path) → parameter (location.name) → dictionary.
bindings = {
    ("POST", "/v1/notifications"): {"body.signedPayload": "signedPayloads"},
    ("GET", "/v1/notifications/{notificationUUID}"): {"path.notificationUUID": "notifications"},
    ("GET", "/v1/decisions/{decisionId}"): {"path.decisionId": "decisions"},
    ("GET", "/v1/decisions"): {"query.originalTransactionId": "chains"},
    ("GET", "/v1/customers/{appAccountToken}/offer"): {"path.appAccountToken": "chains"},
    ("GET", "/v1/subscriptions/{originalTransactionId}/offer"): {"path.originalTransactionId": "chains"},
    ("GET", "/v1/subscriptions/{originalTransactionId}/decisions"): {"path.originalTransactionId": "chains"},
    ("POST", "/v1/offers/decide"): {"body.originalTransactionId": "chains", "body.transactionId": "transactions",
                                    "body.appAccountToken": "tokens"},
    ("POST", "/v1/offers/signatures"): {"body.productId": "productIds", "body.offerId": "offerIds",
                                        "body.transactionId": "transactions", "body.appAccountToken": "tokens"},
    ("GET", "/v1/customers/{appAccountToken}/attributes"): {"path.appAccountToken": "tokens"},
    ("PUT", "/v1/customers/{appAccountToken}/attributes"): {"path.appAccountToken": "tokens"},
    ("GET", "/v1/customers/{appAccountToken}/consent"): {"path.appAccountToken": "tokens"},
    ("PUT", "/v1/customers/{appAccountToken}/consent"): {"path.appAccountToken": "tokens"},
    ("GET", "/v1/subscriptions/{originalTransactionId}/consent"): {"path.originalTransactionId": "chains"},
    ("PUT", "/v1/subscriptions/{originalTransactionId}/consent"): {"path.originalTransactionId": "chains"},
    ("GET", "/v1/transactions/{transactionId}/facts"): {"path.transactionId": "transactions"},
    ("PUT", "/v1/transactions/{transactionId}/facts"): {"path.transactionId": "transactions"},
    ("GET", "/v1/consumption/{transactionId}"): {"path.transactionId": "transactions"},
    ("GET", "/v1/rules/replay/{replayId}"): {"path.replayId": "replays"},
    ("GET", "/v1/rules/replay/{replayId}/report.html"): {"path.replayId": "replays"},
    ("DELETE", "/v1/rules/replay/{replayId}"): {"path.replayId": "replays"},
}
print("\n# Generated by Scripts/contract-check.sh from the demo's data.")
for name, values in dictionaries.items():
    if values:
        print(f"[dictionaries.{name}]\nvalues = {json.dumps(values)}\n")
for (method, path), parameters in bindings.items():
    used = {key: name for key, name in parameters.items() if dictionaries[name]}
    if used:
        print(f"[[operations]]\ninclude-name = {json.dumps(method + ' ' + path)}")
        for key, name in used.items():
            # A replay can be deleted once (then 409); every DELETE names the real one, so the
            # operation is not mistaken for one that only ever answers 404.
            probability = 1.0 if method == "DELETE" else 0.5
            print(f"parameters.{json.dumps(key)} = {{ dictionary = {json.dumps(name)}, probability = {probability} }}")
        print()
PYTHON

# Every check (`--checks all`): status codes, content types, headers and bodies against the
# document, negative data refused and positive data accepted, 405 with Allow for undeclared
# methods, authentication not ignored, and the rest. Every phase runs (examples, coverage,
# fuzzing, stateful). Deterministic generation (which keeps no example database) makes two runs
# send the same requests; --max-examples bounds the fuzzing phase per operation. Each operation is
# tested to the end after a failure, so the report lists every failure of the run.
args=(
    --config-file "$config"
    run "$document"
    --url "$url"
    --header "Authorization: Bearer $token"
    --checks all
    --max-examples "$max_examples"
    --continue-on-failure
    --generation-deterministic
    --workers "$workers"
    --request-timeout 10
    --suppress-health-check all
    --no-color
    --report junit
    --report-dir "$report_dir"
)
# shellcheck disable=SC2206  # word splitting is the point
if [ -n "${CONTRACT_EXTRA_ARGS:-}" ]; then args+=(${CONTRACT_EXTRA_ARGS}); fi

echo "== schemathesis ${args[*]//$token/<token>}"
start=$SECONDS
status=0
python3 -m schemathesis.cli "${args[@]}" || status=$?
echo "== schemathesis finished in $((SECONDS - start)) s with status $status"
if [ -n "${CONTRACT_REPORT_DIR:-}" ]; then echo "== reports in $report_dir"; fi
exit "$status"
