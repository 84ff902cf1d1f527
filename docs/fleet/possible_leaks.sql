-- Possible leaks by controller class: how many, on how many devices and logs, in how many app versions; `unconfirmed`
-- counts those of classes that never log dealloc (info: the log cannot tell a leak from a dealloc it did not log).
SELECT controllerClass,
       COUNT(*) AS findings,
       SUM(CASE WHEN severity = 'info' THEN 1 ELSE 0 END) AS unconfirmed,
       COUNT(DISTINCT device) AS devices,
       COUNT(DISTINCT log) AS logs,
       COUNT(DISTINCT appVersion) AS appVersions
FROM findings
WHERE rule = 'possible-leak'
GROUP BY controllerClass
ORDER BY findings DESC, controllerClass NULLS FIRST
