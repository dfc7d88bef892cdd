-- Starts an instance's lease unless its id is known: its lease is live, or executions recorded under it wait for
-- a sweeper (taking the id again would hide them from the sweepers for as long as the new lease lives).
-- KEYS[1] the instance's lease, KEYS[2] the instance's executions; ARGV[1] the lease's lifetime (ms)
-- Returns 1 when the lease was started, false when the id is known.
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then
  return false
end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return 1
