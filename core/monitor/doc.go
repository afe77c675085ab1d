// Package monitor is the science of Pandey, Ramamritham & Chakrabarti,
// "Monitoring the Dynamic Web to respond to Continuous Queries" (WWW 2003):
// Continuous Adaptive Monitoring (CAM). Continuous queries want every
// relevant change as it happens, so the goal is not a fresh index but as
// little lost information as possible.
//
// The model (§2, §3.1): pages relevant to weighted queries carry a weight
// W_i = Σ_j ω_j r_{i,j} (Weights; r by the tf·idf cosine of Appendix B,
// TextRelevance). Monitoring works in epochs of length T. Within an epoch,
// page i may change only at update instants u_{i,j}, at each with
// probability ρ_{i,j}, and λ_i = Σ_j ρ_{i,j} is its expected number of
// changes. Like §5.1, every page here shares one sequence of instants U
// (Instance.Times); a page's own instants are those where its ρ > 0. An
// allocation sets y_{i,j} = 1 where page i is monitored at instant j, using
// C monitoring tasks (the budget) in all.
//
// Allocation policies (Policy): CAM's optimal allocation of §3.2, which
// maximises Σ_i W_i Σ_j ρ_{i,j} y_{i,j}, and the uniform and proportional
// baselines of §5.1 in weighted and unweighted forms. RIR is §5.1's
// returned information ratio; CompleteLossRIR counts what a monitor returns
// under the complete-loss assumption of §3.1 instead (a change is returned
// when the page is monitored after it and before its next change), which
// is what a simulation (Simulate) realises.
//
// Scheduling (§4): M parallel monitoring processes run the tasks, each
// released at its instant and taking its page's fetch time, without
// preemption; List and AlphaPoint place them, and a task that cannot start
// within the epoch is lost (ScheduledRIR credits the tasks as they run).
//
// Re-allocation (§5.5): Simulate runs a tracking phase that monitors every
// instant, re-estimates ρ from what the monitors see (whether the page
// changed since its previous monitoring, or with Config.ChangeTimes at the
// task's own instant), per instant or per page (ReestimateInstant,
// ReestimatePage: the two readings of the paper's rule), and re-allocates
// every k epochs. FromEvents turns a
// change-event log into epochs of time slots (hour of day, hour of week)
// to replay.
//
// Run is the one call an experiment needs: Data (an instance whose Rho is
// the truth, as a generator gives it, or a Replay's instance and recorded
// changes), an Experiment (policy ids of Descriptors, the budget, repeats,
// tracking, epochs, re-allocation, a scheduler) and a seed give a Report:
// for each policy every metric of Metrics as a mean over repeats with its
// 95% interval, per-epoch series and the allocation per page, and the
// instance's facts (Σλ, Σ W·λ, AppendixARatio).
//
// Every result is a function of the inputs and the *rand.Rand passed in,
// and is the same to the last bit natively and in WebAssembly: only
// arithmetic, Floor, Sqrt, Log1p and Expm1 (through package detmath)
// decide any number here.
package monitor
