-- Appends one entry to an SSE stream and returns the entry id Redis assigned: an event (field d) or the
-- completion marker (field c). Each entry also records its predecessor's id (field p), so a replay can tell
-- whether a client whose last entry was trimmed away missed anything.
-- KEYS[1] the stream, KEYS[2] the session's streams by age, KEYS[3] the session's last entry id per stream
-- ARGV[1] the field (d or c), ARGV[2] its value, ARGV[3] the stream length bound, ARGV[4] the TTL in ms,
-- ARGV[5] the bound on streams per session, ARGV[6] the stream's segment (member of KEYS[2], field of KEYS[3]),
-- ARGV[7] the key prefix of the session's streams (prefix .. segment is a stream key),
-- ARGV[8] 1 to append only to a stream that exists (the marker), else 0
local ttl = tonumber(ARGV[4])
local exists = redis.call('EXISTS', KEYS[1]) == 1
if ARGV[8] == '1' and not exists then
  return false
end
local previous = ''
if exists then
  previous = redis.call('HGET', KEYS[3], ARGV[6]) or ''
end
if redis.call('ZSCORE', KEYS[2], ARGV[6]) == false then
  -- A new stream: rank it after the newest, and drop the oldest streams beyond the bound.
  local newest = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
  local rank = 1
  if #newest == 2 then
    rank = tonumber(newest[2]) + 1
  end
  redis.call('ZADD', KEYS[2], rank, ARGV[6])
  local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
  if excess > 0 then
    local dropped = redis.call('ZPOPMIN', KEYS[2], excess)
    for i = 1, #dropped, 2 do
      redis.call('DEL', ARGV[7] .. dropped[i])
      redis.call('HDEL', KEYS[3], dropped[i])
    end
  end
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', ARGV[1], ARGV[2], 'p', previous)
redis.call('HSET', KEYS[3], ARGV[6], id)
-- Entry ids start with the append time in ms, so trimming by id also bounds the entries' age.
local ms = tonumber(string.match(id, '^(%d+)-'))
if ms > ttl then
  redis.call('XTRIM', KEYS[1], 'MINID', '~', tostring(ms - ttl))
end
for i = 1, 3 do
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return id
