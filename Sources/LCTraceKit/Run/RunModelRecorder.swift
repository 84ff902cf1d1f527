/// Learns the model of a run as its sessions close (`lctrace learn`, `--write-model`, `--against`): each input one
/// run. It also keeps where the run first showed each transition and class, for the findings against a model.
struct RunModelRecorder {
    /// The inputs ended so far.
    private(set) var model = LifecycleModel()
    /// The input being read.
    private var input = LifecycleModel()
    private(set) var firstTransitions: [LifecycleModel.TransitionPath: ModelComparison.Place] = [:]
    private(set) var firstControllers: [String: ModelComparison.Place] = [:]
    /// The first input of the run, where findings about what it lacks are put.
    private(set) var firstInput: String?

    /// Counts a closed session's transitions and controllers into the input's run, noting where each was first seen.
    mutating func record(_ session: SessionReport) {
        if firstInput == nil { firstInput = session.input }
        for transition in session.transitions {
            let path = LifecycleModel.path(of: transition)
            input.count(path, durationMs: transition.durationMs)
            if firstTransitions[path] == nil { firstTransitions[path] = .init(input: session.input, line: transition.startLine) }
        }
        for controller in session.controllers where controller.kind == .controller {
            input.count(controller.className, durationMs: controller.loadToFirstAppearMs)
            if firstControllers[controller.className] == nil {
                firstControllers[controller.className] = .init(input: session.input, line: controller.firstLine)
            }
        }
        // Past the controllers a session lists, its deallocated ones are counted by class, without their times.
        for unlisted in session.unlistedControllers {
            input.count(unlisted.className, instances: unlisted.instances, durationMs: nil)
            if firstControllers[unlisted.className] == nil {
                firstControllers[unlisted.className] = .init(input: session.input, line: unlisted.firstLine)
            }
        }
    }

    mutating func inputEnded(_ name: String) {
        if firstInput == nil { firstInput = name }
        input.endRun()
        model.merge(input)
        input = LifecycleModel()
    }
}
