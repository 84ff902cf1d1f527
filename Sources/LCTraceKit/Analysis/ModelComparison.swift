/// A run held against a model of earlier runs (`--against`): what is new (a transition or a controller class the
/// model never saw), what is gone (a transition every run of the model took), and what got slower (a transition's
/// duration, or a class's time from viewDidLoad to its first viewDidAppear, at the median or the 90th percentile).
struct ModelComparison {
    /// Where a finding about the run is put: an input and a line.
    struct Place: Equatable {
        var input: String
        var line: Int
    }

    /// A deviation, with the input it is put in.
    struct Located {
        var deviation: Deviation
        var input: String
    }

    /// Timings needed on each side before percentiles are compared.
    static let minimumTimings = 5
    /// A percentile slower by less than this is timer noise, whatever the percentage.
    static let noiseMs = 10.0
    /// The percentiles compared, the 90th first: the one reported when both are slower.
    static let percentiles = [90, 50]

    let model: LifecycleModel
    let slowerByPercent: Double

    /// The run's deviations from the model, in a fixed order: new classes, new transitions, missing transitions,
    /// slower transitions, slower classes; each list sorted by name.
    func deviations(of run: LifecycleModel, firstTransitions: [LifecycleModel.TransitionPath: Place],
                    firstControllers: [String: Place], firstInput: String?) -> [Located] {
        var found: [Located] = []
        func add(_ rule: Rule, at place: Place, subject: String?, _ wording: RuleCatalog.Wording) {
            found.append(Located(deviation: Deviation(rule: rule, line: place.line, subject: subject, wording), input: place.input))
        }
        for name in run.controllers.keys.sorted() where model.controllers[name] == nil {
            guard let place = firstControllers[name] else { continue }
            add(.newController, at: place, subject: name, RuleCatalog.newControllerWording(name, modelRuns: model.runs))
        }
        for path in run.transitions.keys.sorted() where model.transitions[path] == nil {
            guard let place = firstTransitions[path] else { continue }
            let otherKinds = model.transitions.keys.filter { $0.from == path.from && $0.to == path.to }.map(\.kind).sorted()
            add(.newTransition, at: place, subject: path.to.isEmpty ? nil : path.to,
                RuleCatalog.newTransitionWording(path.description, modelRuns: model.runs, otherKinds: otherKinds))
        }
        if let firstInput, model.runs > 0 {
            for (path, tally) in model.transitions.sorted(by: { $0.key < $1.key })
            where tally.runs >= model.runs && run.transitions[path] == nil {
                add(.missingTransition, at: Place(input: firstInput, line: 1), subject: path.to.isEmpty ? nil : path.to,
                    RuleCatalog.missingTransitionWording(path.description, modelRuns: model.runs, count: tally.count))
            }
        }
        for (path, tally) in run.transitions.sorted(by: { $0.key < $1.key }) {
            guard let modelTally = model.transitions[path], let place = firstTransitions[path],
                  let wording = slower(path.description, tally.durations, than: modelTally.durations) else { continue }
            add(.slowerThanModel, at: place, subject: path.to.isEmpty ? nil : path.to, wording)
        }
        for (name, tally) in run.controllers.sorted(by: { $0.key < $1.key }) {
            guard let modelTally = model.controllers[name], let place = firstControllers[name],
                  let wording = slower("\(name) from viewDidLoad to its first viewDidAppear", tally.durations,
                                       than: modelTally.durations) else { continue }
            add(.slowerThanModel, at: place, subject: name, wording)
        }
        return found
    }

    /// The wording when `durations` are slower than `model`'s at one of the percentiles compared.
    private func slower(_ what: String, _ durations: LifecycleModel.Durations, than model: LifecycleModel.Durations) -> RuleCatalog.Wording? {
        guard durations.count >= ModelComparison.minimumTimings, model.count >= ModelComparison.minimumTimings else { return nil }
        for percentile in ModelComparison.percentiles {
            guard let ms = durations.milliseconds(atPercentile: Double(percentile)),
                  let modelMs = model.milliseconds(atPercentile: Double(percentile)) else { continue }
            if ms - modelMs >= ModelComparison.noiseMs, ms > modelMs * (1 + slowerByPercent / 100) {
                return RuleCatalog.slowerThanModelWording(what, percentile: percentile, ms: ms, modelMs: modelMs,
                                                          samples: durations.count, modelSamples: model.count)
            }
        }
        return nil
    }
}
