-- Claims a session for an instance unless another instance with a live lease owns it.
-- KEYS[1] the session's claim, KEYS[2] the caller's lease
-- ARGV[1] the caller's segment, ARGV[2] the claim's lifetime (ms), ARGV[3] the prefix of lease keys
-- Returns the owner's segment after the call, or false (nil) when the caller's lease is gone: an answer, not an
-- error, so the client cannot mistake it for an outage. No segment is empty, so nil is never an owner.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return false
end
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. owner) == 1 then
  return owner
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]
