"""The Lua scripts that make writes atomic. Each touches the keys of one game only."""

# KEYS: events, meta, credentials
# ARGV: n_meta_pairs, meta k/v..., n_cred_pairs, cred k/v..., n_events, entry JSON...
CREATE = """
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[1]) == 1 then
  return {'exists'}
end
local i = 1
local n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]); i = i + 2 end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]); i = i + 2 end
n = tonumber(ARGV[i]); i = i + 1
for v = 1, n do
  redis.call('XADD', KEYS[1], '0-' .. v, 'e', ARGV[i])
  i = i + 1
end
return {'ok', tostring(n)}
"""

# KEYS: meta. ARGV: the finished log's entry id.
# The mark of an ended game's logging, set once, and only on a meta that is still there: a
# HSETNX alone would make a meta of that one field when the archiver removed the game between
# the logging's check and its mark (every later read of the game then fails on its type).
MARK_FINISHED = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HSETNX', KEYS[1], 'finished_log', ARGV[1])
"""

# KEYS: events, the cached blob
# ARGV: blob, ttl_seconds
# A blob derived from a game's history lives no longer than the history (nor at all without it).
CACHE = """
local left = redis.call('TTL', KEYS[1])
if left == -2 then return 0 end
local ttl = tonumber(ARGV[2])
if left > 0 and left < ttl then ttl = left end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ttl)
return 1
"""

# KEYS: events, idempotency key (may be a never-written placeholder of the same game)
# ARGV: expected_version, use_idempotency (0/1), fingerprint, response, ttl_seconds,
#       n_events, entry JSON... (one field per stream entry: one decode per event on replay),
#       then optionally held: the version the writer's state is at. A conflict then answers
#       the entries after it (each entry's fields, flat), up to 100 of them (events/store.py's CATCH_UP), so the writer
#       catches up and judges again without a read of its own (no `held`: the version only; ''
#       when what follows is given), then optionally a channel, the game's id and the writer's
#       origin: an append that is written PUBLISHes
#       "<game id>\n<its first version>\n<origin>\n<entry>\n<entry>..." there
#       (the other processes holding the game advance it: events/redis_announcements.py). An
#       entry is JSON, which never holds a raw newline.
# The idempotency key and the expected version are both checked before the first write, so a
# refused append writes nothing; the events and the remembered answer are written together.
APPEND = """
if ARGV[2] == '1' then
  local previous = redis.call('HMGET', KEYS[2], 'fingerprint', 'response')
  if previous[1] then return {'duplicate', previous[1], previous[2]} end
end
local version = redis.call('XLEN', KEYS[1])
if version == 0 then return {'missing'} end
local n = tonumber(ARGV[6])
if tonumber(ARGV[1]) ~= version then
  local held = tonumber(ARGV[7 + n])
  if held == nil or held >= version or version - held > 100 then return {'conflict', tostring(version)} end
  local reply = {'conflict', tostring(version)}
  for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '0-' .. (held + 1), '+')) do
    reply[#reply + 1] = entry[2]
  end
  return reply
end
local i = 7
for v = version + 1, version + n do
  redis.call('XADD', KEYS[1], '0-' .. v, 'e', ARGV[i])
  i = i + 1
end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[2], 'fingerprint', ARGV[3], 'response', ARGV[4])
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[5]))
end
-- KEYS[3], the game's webhook subscriptions: whether any covers it (the after-append step's question)
local watched = 0
if KEYS[3] then watched = redis.call('EXISTS', KEYS[3]) end
local channel = ARGV[8 + n]
if channel and n > 0 then
  local told = {ARGV[9 + n], tostring(version + 1), ARGV[10 + n]}
  for e = 7, 6 + n do told[#told + 1] = ARGV[e] end
  redis.call('PUBLISH', channel, table.concat(told, '\\n'))
end
return {'ok', tostring(version + n), watched}
"""

# KEYS: snapshot index (sorted set of versions), snapshot blobs (hash: "code", "v:<version>")
# ARGV: code, version, blob. Snapshots made by other code are dropped first: a cache.
SAVE_SNAPSHOT = """
if redis.call('HGET', KEYS[2], 'code') ~= ARGV[1] then
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('HSET', KEYS[2], 'code', ARGV[1])
end
redis.call('HSET', KEYS[2], 'v:' .. ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[2])
return 1
"""

# KEYS: as above. ARGV: code, at_most ("+inf" for the newest). Returns {version, blob} or nil.
LOAD_SNAPSHOT = """
if redis.call('HGET', KEYS[2], 'code') ~= ARGV[1] then return nil end
local found = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[2], '-inf', 'LIMIT', 0, 1)
if #found == 0 then return nil end
return {found[1], redis.call('HGET', KEYS[2], 'v:' .. found[1])}
"""

# KEYS: owing set. ARGV: game id, version judged. Removes the game only if it was not marked at
# a later version meanwhile (a move that made it owe a turn again after the judgement).
SETTLE = """
local marked = redis.call('ZSCORE', KEYS[1], ARGV[1])
if marked and tonumber(marked) <= tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""

# KEYS: the game's snapshot index, snapshots, events, meta, credentials. ARGV: ttl seconds (0:
# keep). A finished game's snapshots are dropped (its rare reads replay it); with a TTL, the
# game's history, meta and credentials expire together.
FINISH = """
redis.call('DEL', KEYS[1], KEYS[2])
local ttl = tonumber(ARGV[1])
if ttl > 0 then
  for i = 3, 5 do redis.call('EXPIRE', KEYS[i], ttl) end
end
return 1
"""
