# Sourced by the small-clone benchmarks (bench-small-clone.sh, bench-small-clone-floor.sh): the
# sample model's 5-object note (2 items, a memo with the tag "home" and an attachment), created
# through a running `cloner serve` once it answers.
#
#   wait_for_cloner PORT        # polls /healthz, up to 10 s
#   seed_small_note PORT        # the tag, the note and the memo (note 1, tag 1)
#   write_wrk_scripts DIR       # DIR/clone.lua (POST {}), DIR/tags.lua (POST /tags, unique
#                               # names from wrk's argument), DIR/get.lua, DIR/update.lua (PATCH
#                               # note 1: isPinned)

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

write_wrk_scripts() {
    cat > "$1/update.lua" << 'LUA'
wrk.method = "PATCH"
wrk.headers["Content-Type"] = "application/json"
wrk.body = "{\"isPinned\": true}"
LUA
    cat > "$1/clone.lua" << 'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = "{}"
LUA
    # Unique tag names: a prefix per run (wrk's argument), a number per thread and a counter.
    cat > "$1/tags.lua" << 'LUA'
local threads = 0
function setup(thread)
    thread:set("tid", threads)
    threads = threads + 1
end
function init(args)
    prefix = args[1]
    counter = 0
end
function request()
    counter = counter + 1
    return wrk.format("POST", "/tags", { ["Content-Type"] = "application/json" },
        '{"name": "' .. prefix .. "-" .. tid .. "-" .. counter .. '"}')
end
LUA
    echo 'wrk.method = "GET"' > "$1/get.lua"
}
