"""The Lua scripts that make writes atomic. Each touches the keys of one game only."""

# KEYS: events, meta, credentials
# ARGV: n_meta_pairs, meta k/v..., n_cred_pairs, cred k/v..., n_events, (type, data, actor, at)...
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
  redis.call('XADD', KEYS[1], '0-' .. v, 'type', ARGV[i], 'data', ARGV[i + 1],
             'actor', ARGV[i + 2], 'at', ARGV[i + 3])
  i = i + 4
end
return {'ok', tostring(n)}
"""

# KEYS: events, idempotency key (may be a never-written placeholder of the same game)
# ARGV: expected_version, use_idempotency (0/1), fingerprint, response, ttl_seconds,
#       n_events, (type, data, actor, at)...
# The idempotency key and the expected version are both checked before the first write, so a
# refused append writes nothing; the events and the remembered answer are written together.
APPEND = """
if ARGV[2] == '1' then
  local previous = redis.call('HMGET', KEYS[2], 'fingerprint', 'response')
  if previous[1] then return {'duplicate', previous[1], previous[2]} end
end
local version = redis.call('XLEN', KEYS[1])
if version == 0 then return {'missing'} end
if tonumber(ARGV[1]) ~= version then return {'conflict', tostring(version)} end
local n = tonumber(ARGV[6])
local i = 7
for v = version + 1, version + n do
  redis.call('XADD', KEYS[1], '0-' .. v, 'type', ARGV[i], 'data', ARGV[i + 1],
             'actor', ARGV[i + 2], 'at', ARGV[i + 3])
  i = i + 4
end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[2], 'fingerprint', ARGV[3], 'response', ARGV[4])
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[5]))
end
return {'ok', tostring(version + n)}
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
