-- Possible leaks by controller class: how many, on how many devices and logs, in how many app versions; `unconfirmed`
-- counts those of classes that never log dealloc (info: the log cannot tell a leak from a dealloc it did not log).
SELECT f.controllerClass,
       COUNT(*) AS findings,
       SUM(CASE WHEN f.severity = 'info' THEN 1 ELSE 0 END) AS unconfirmed,
       COUNT(DISTINCT COALESCE(f.device, s.device)) AS devices,
       COUNT(DISTINCT f.log) AS logs,
       COUNT(DISTINCT f.appVersion) AS appVersions
FROM findings f
LEFT JOIN sessions s ON s.log = f.log AND s.session = f.session
WHERE f.rule = 'possible-leak'
GROUP BY f.controllerClass
ORDER BY findings DESC, f.controllerClass NULLS FIRST
