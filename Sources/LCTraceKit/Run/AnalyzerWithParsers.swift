import PCRE2

extension Analyzer {
    /// An analyzer that reads its inputs with parsers made already, for a caller that analyses many small inputs one
    /// after another, each as a run of its own: compiling the header formats and the message forms costs more than
    /// reading a small log.
    ///
    /// A header recognizer carries nothing from one input to the next that changes how a line is read (each input
    /// starts with `reset()`). A message parser keeps the names of every message it read, across runs, up to
    /// `NameTable.limit` of each kind; a caller that reads without end makes a new one now and then. Both must have
    /// been made with `options.lineFormat` and `options.limits` and with the fast path, and neither is shared between
    /// threads.
    public convenience init(options: AnalysisOptions, reports: ReportDelivery, headerRecognizer: LineHeaderRecognizer,
                            messageParser: MessageParser) {
        self.init(options: options, target: reports, messageParser: messageParser, headerRecognizer: headerRecognizer)
    }
}
