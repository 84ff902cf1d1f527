-- Possible leaks by controller class: how many, on how many devices and logs, in how many app versions.
SELECT controllerClass,
       COUNT(*) AS findings,
       COUNT(DISTINCT device) AS devices,
       COUNT(DISTINCT log) AS logs,
       COUNT(DISTINCT appVersion) AS appVersions
FROM findings
WHERE rule = 'possible-leak'
GROUP BY controllerClass
ORDER BY findings DESC, controllerClass NULLS FIRST
