-- The owner of a session when its lease is live, else false.
-- KEYS[1] the session's claim; ARGV[1] the prefix of lease keys
local owner = redis.call('GET', KEYS[1])
if owner and redis.call('EXISTS', ARGV[1] .. owner) == 1 then
  return owner
end
return false
