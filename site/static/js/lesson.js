// A lesson page: mounts the experiment its lesson file declares.
import { mountExperiment } from './experiment.js';

const config = JSON.parse(document.getElementById('lesson-config').textContent);
mountExperiment(document.getElementById('experiment'), config, { urlState: true });
