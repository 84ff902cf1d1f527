/// lctrace's version, a semantic version (MAJOR.MINOR.PATCH): `lctrace --version` prints it, and the JSON and SARIF
/// reports carry it.
public enum LCTraceVersion {
    public static let current = "0.9.0"
}
