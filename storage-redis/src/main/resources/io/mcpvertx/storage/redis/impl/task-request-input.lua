-- Adds outstanding input requests to a task that is not terminal, and makes it wait for them. A key used
-- before in the task's lifetime refuses the whole call.
-- KEYS[1] the task
-- ARGV[1] 1 when there is a status message, ARGV[2] the message, ARGV[3] the changes channel,
-- ARGV[4..] pairs of key and request JSON
-- Returns {'missing'}, {'nop', task JSON}, {'reused', key} or {'ok', task JSON}.
local task, raw = load(KEYS[1])
if task == nil then
  return {'missing'}
end
local status = task.status
if TERMINAL[status] then
  return {'nop', raw}
end
local used = entries(task.u)
for i = 4, #ARGV, 2 do
  if used[ARGV[i]] ~= nil then
    return {'reused', ARGV[i]}
  end
end
local requests = entries(task.q)
local added = 0
for i = 4, #ARGV, 2 do
  if requests[ARGV[i]] == nil then
    added = added + 1
  end
  requests[ARGV[i]] = ARGV[i + 1]
  used[ARGV[i]] = '1'
end
task.q = requests
task.u = used
task.nq = int((tonumber(task.nq) or 0) + added)
task.status = 'input_required'
set_message(task, ARGV[1], ARGV[2])
stamp(task)
raw = store(KEYS[1], task)
announce(ARGV[3], 'INPUT_REQUESTED', 'input_required', task.id)
if status ~= 'input_required' then
  announce(ARGV[3], 'STATUS', 'input_required', task.id)
end
return {'ok', raw}
