-- The entries of a stream after the one a client saw last, or nil when resuming from it would lose entries.
-- KEYS[1] the stream
-- ARGV[1] the entry id the client saw last (canonical ms-seq), ARGV[2] the most entries to return
--
-- Trimming removes the oldest entries only. So when the client's entry is still there, everything after it is;
-- when it was trimmed, the client missed nothing only if it is the predecessor of the oldest entry left.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
if #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1]) == 1 then
  return redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+', 'COUNT', ARGV[2])
end
local entries = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', ARGV[2])
if #entries == 0 then
  return false
end
local fields = entries[1][2]
for i = 1, #fields, 2 do
  if fields[i] == 'p' and fields[i + 1] == ARGV[1] then
    return entries
  end
end
return false
