-- Moves a task to another status if its status is one of the given ones and not terminal.
-- KEYS[1] the task
-- ARGV[1] the statuses it may move from, comma-separated, ARGV[2] the status to move to, ARGV[3] 1 when there is
-- a status message, ARGV[4] the message, ARGV[5] the changes channel, ARGV[6] the task's segment
-- Returns {'missing'}, {'nop', task JSON} or {'ok', task JSON}.
local task, raw = load(KEYS[1])
if task == nil then
  return {'missing'}
end
local allowed = false
for from in string.gmatch(ARGV[1], '[^,]+') do
  if from == task.status then
    allowed = true
  end
end
if TERMINAL[task.status] or not allowed then
  return {'nop', raw}
end
task.status = ARGV[2]
set_message(task, ARGV[3], ARGV[4])
stamp(task)
if TERMINAL[ARGV[2]] then
  settle(task, ARGV[6])
end
raw = store(KEYS[1], task)
announce(ARGV[5], 'STATUS', ARGV[2], task.id)
return {'ok', raw}
