-- Hands out up to ARGV[1] executions of instances whose lease is gone, each once: SPOP removes what it returns.
-- Examines at most ARGV[2] indexed instances per call (a random sample), so a large index costs a bounded call;
-- an instance with nothing left is dropped from the index.
-- KEYS[1] the index of instances; ARGV[3] the prefix of lease keys, ARGV[4] the prefix of execution sets
-- Returns a flat array: instance segment, task id, instance segment, task id, ...
local max = tonumber(ARGV[1])
local out = {}
local taken = 0
local sample = redis.call('SRANDMEMBER', KEYS[1], tonumber(ARGV[2]))
for _, instance in ipairs(sample) do
  if taken >= max then
    break
  end
  if redis.call('EXISTS', ARGV[3] .. instance) == 0 then
    local executions = ARGV[4] .. instance
    local popped = redis.call('SPOP', executions, max - taken)
    for _, task in ipairs(popped) do
      out[#out + 1] = instance
      out[#out + 1] = task
      taken = taken + 1
    end
    if redis.call('SCARD', executions) == 0 then
      redis.call('SREM', KEYS[1], instance)
    end
  end
end
return out
