-- Findings by rule: how many, on how many devices and logs, in how many app versions, the oldest and the newest.
-- A finding's device is its log path's, else the one its session's log names.
SELECT f.rule, f.severity,
       COUNT(*) AS findings,
       COUNT(DISTINCT COALESCE(f.device, s.device)) AS devices,
       COUNT(DISTINCT f.log) AS logs,
       COUNT(DISTINCT f.appVersion) AS appVersions,
       MIN(f.appVersion) AS firstVersion,
       MAX(f.appVersion) AS lastVersion
FROM findings f
LEFT JOIN sessions s ON s.log = f.log AND s.session = f.session
GROUP BY f.rule, f.severity
ORDER BY findings DESC, f.rule, f.severity
