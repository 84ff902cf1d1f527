-- The logs lctrace could not read (whole or in part), with why.
SELECT log, status, error
FROM inputs
WHERE error IS NOT NULL
ORDER BY log
