-- Undoes a create whose answer the caller lost: removes the task if the create ran, and otherwise leaves a
-- marker that makes the create refuse when it arrives (it may still be queued on another connection).
-- KEYS[1] the task, KEYS[2] its marker, KEYS[3] the owner's tasks in creation order, KEYS[4] the owner's entries
-- by expiry, KEYS[5] the owner's active tasks
-- ARGV[1] the owner, ARGV[2] the task's segment, ARGV[3] how long the marker stays, ms
-- Returns {'removed'} or {'marked'}.
local raw = redis.call('GET', KEYS[1])
if raw then
  local task = cjson.decode(raw)
  if task.owner ~= ARGV[1] then
    -- Ids are random: only someone else's deliberate reuse gets here, and that task is not ours to remove.
    return {'marked'}
  end
  if task.om then
    redis.call('ZREM', KEYS[3], task.om)
    redis.call('ZREM', KEYS[4], task.om)
  end
  redis.call('ZREM', KEYS[5], ARGV[2])
  redis.call('DEL', KEYS[1])
  return {'removed'}
end
redis.call('SET', KEYS[2], 1, 'PX', ARGV[3])
return {'marked'}
