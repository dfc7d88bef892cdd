-- Removes a session's claim when the given instance holds it.
-- KEYS[1] the session's claim; ARGV[1] the instance's segment
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return 1
