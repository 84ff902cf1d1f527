/// Numbers in words, as every report and message writes them: the definition the text report's byte writer
/// (`TextWriter`) and the JSON writer follow, used by them for values too large for their integer paths, and by the
/// messages and the lines written once per run.
public enum TextFormat {
    /// `1 event`, `2 events`; `info`, a severity, stays as it is.
    public static func plural(_ count: Int, _ word: String) -> String {
        "\(count) \(word)\(count != 1 && word != "info" ? "s" : "")"
    }

    /// `1.234 s`: milliseconds as seconds with three decimals.
    static func seconds(_ ms: Double) -> String {
        let value = (ms / 1000 * 1000).rounded() / 1000
        var text = String(value)
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < 3 { text += String(repeating: "0", count: 3 - decimals) }
        }
        return text + " s"
    }

    /// `1.234 s` from a second up, else milliseconds with at most one decimal (`43.2 ms`).
    static func duration(_ ms: Double) -> String {
        ms >= 1000 ? seconds(ms) : measure((ms * 10).rounded() / 10) + " ms"
    }

    /// Milliseconds and other measures: at most three decimals, no trailing zeros, integers without a point.
    static func measure(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}
