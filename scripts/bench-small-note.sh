# Sourced by the small-clone benchmarks (bench-small-clone.sh, bench-small-clone-floor.sh): the
# sample model's 5-object note (2 items, a memo with the tag "home" and an attachment), created
# through a running `cloner serve` once it answers.
#
#   wait_for_cloner PORT        # polls /healthz, up to 10 s
#   seed_small_note PORT        # the tag, the note and the memo (note 1, tag 1)

wait_for_cloner() {
    for _ in $(seq 1 100); do
        if curl -fsS -o /dev/null "http://127.0.0.1:$1/healthz" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "cloner did not answer on port $1" >&2
    return 1
}

seed_small_note() {
    local base="http://127.0.0.1:$1"
    local json=(-fsS -o /dev/null -H 'Content-Type: application/json')
    curl "${json[@]}" -X POST "$base/tags" -d '{"name": "home"}'
    curl "${json[@]}" -X POST "$base/notes" -d '{"id": "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7b", "name": "Groceries",
        "createDate": "2026-11-21T10:00:00Z", "items": [{"name": "milk"}, {"name": "eggs"}]}'
    curl "${json[@]}" -X POST "$base/memos" -d '{"text": "buy today", "createDate": "2026-11-21T10:05:00Z", "note": 1,
        "tags": [1], "attachments": [{"image": "aGVsbG8="}]}'
}
