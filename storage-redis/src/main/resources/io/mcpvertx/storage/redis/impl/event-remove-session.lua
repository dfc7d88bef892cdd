-- Deletes every stream of a session and the session's indexes.
-- KEYS[1] the session's streams by age, KEYS[2] the session's last entry id per stream
-- ARGV[1] the key prefix of the session's streams (prefix .. segment is a stream key)
local streams = redis.call('ZRANGE', KEYS[1], 0, -1)
for i = 1, #streams do
  redis.call('DEL', ARGV[1] .. streams[i])
end
redis.call('DEL', KEYS[1], KEYS[2])
return #streams
