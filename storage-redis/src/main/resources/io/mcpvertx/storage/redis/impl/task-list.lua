-- One page of an owner's tasks in creation order, after a position.
-- KEYS[1] the owner's tasks in creation order, KEYS[2] the owner's entries by expiry
-- ARGV[1] the position (an index member) to start after, or '' for the beginning, ARGV[2] the page size,
-- ARGV[3] the key prefix of the owner's tasks, ARGV[4] the owner, ARGV[5] the most entries to look at
-- Returns {next position or '', task JSON, task JSON, ...}: the position is '' on the last page.
--
-- Entries whose task is gone (expired, or replaced by a task that reused its id) are skipped and removed. The
-- walk is bounded: after ARGV[5] entries the page may be short, and its position says where to go on.
local limit = tonumber(ARGV[2])
local budget = tonumber(ARGV[5])
local min = '-'
if ARGV[1] ~= '' then
  min = '(' .. ARGV[1]
end
local page = {''}
local last = nil
while budget > 0 do
  local batch = math.min(budget, limit + 1)
  local members = redis.call('ZRANGEBYLEX', KEYS[1], min, '+', 'LIMIT', 0, batch)
  for i = 1, #members do
    local member = members[i]
    local raw = redis.call('GET', ARGV[3] .. string.match(member, '^%d+:(.*)$'))
    local task = raw and cjson.decode(raw)
    local live = task and task.om == member
    local mine = live and task.owner == ARGV[4]
    if not live then
      redis.call('ZREM', KEYS[1], member)
      redis.call('ZREM', KEYS[2], member)
    elseif mine then
      if #page - 1 == limit then
        -- One more task exists: the page is full, and the next one starts after its last task.
        page[1] = last
        return page
      end
      table.insert(page, raw)
      last = member
    end
    min = '(' .. member
  end
  if #members < batch then
    return page
  end
  budget = budget - #members
end
-- Out of budget with more entries possibly left: go on after the last entry looked at.
page[1] = string.sub(min, 2)
return page
