// Package cluster is cluster-level sampling (Tan, Zhuang, Mitra & Giles, "A
// Clustering-Based Sampling Approach for Refreshing Search Engine's
// Database", WebDB 2007): group the repository's pages by features tied to
// how they change, sample pages near each group's centroid, and spend the
// budget on the groups whose samples changed most.
//
// What is here, by section of the paper:
//
//   - §3.1 static features (RawStatic, URLParts, and the ten word-cluster
//     distance dimensions of the page texts and of the URLs, from tf·idf
//     vectors: core/textvec) and §3.2 dynamic features (DynamicNames),
//     grouped into §5.2's six feature sets (FeatureSets);
//   - §3.3 repeated-bisection clustering (Bisect, Tree) under the criterion
//     τ of eq. 2–3, and the choice of k by v-fold cross-validation
//     (CrossValidate, Elbow);
//   - §4.1 samples drawn near the centroid and the t-test's "sufficient"
//     sample (Sufficient, with core/stat's t quantile), §4.2 the download
//     probability φ = 1 − e^(−λ) (eq. 4, Phi) from a page's change history
//     weighted by nad, sad, aad or gad (eq. 5, Weights, History);
//   - the policy, "cluster-sampling" (Policy, Descriptors).
//
// Each reading of ours where the paper is silent or garbled is written
// next to the code it governs. Three are about speed, so that 300,000 pages
// cluster in a browser: a clustering is fitted on at most FitPages pages and
// the rest placed by descending its tree; each bisection's trials fit a
// sample of the cluster (Options.FitSample); and re-clustering with the
// crawler's dynamic features each cycle works on summaries of the pages
// (Codebook). The clusterings that depend on the repository alone are
// computed once per dataset (refresh.Env.Remember); Prepare and the
// package's benchmarks report how long they take, apart from a run's time.
//
// Every decision avoids math.Exp and math.Log (assembly on amd64, pure Go
// in WebAssembly, and not always equal in the last bit), so a spec and seed
// give the same numbers natively and in the browser; a test pins them.
package cluster
