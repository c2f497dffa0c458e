"""Expert iteration: networks trained from the search they guide.

The policy-guided search (``ismcts:prior=policy,value=policy``) plays better than the
network that guides it. Expert iteration (Anthony, Tian and Barber, *Thinking Fast
and Slow with Deep Learning and Tree Search*, NeurIPS 2017) turns that into a better
network: the search plays games against a league, the network learns to choose as
the search chose (its root visit shares) and to predict the result, and the better
network guides the search of the next iteration.

- :mod:`~agents.expert.samples`: the searching seat's decisions, saved as arrays;
- :mod:`~agents.expert.play`: the games of one iteration, on worker processes;
- :mod:`~agents.expert.fit`: the network trained on the samples;
- :mod:`~agents.expert.run`: the iterations in a run folder that resumes
  (``cardgym expert``).
"""

from agents.expert.fit import Epoch, FitSettings, fit, losses
from agents.expert.play import Batch, BatchResult, play_batch
from agents.expert.run import ExpertSettings, RunError, run_expert
from agents.expert.samples import SampleError, Samples

__all__ = ["Batch", "BatchResult", "Epoch", "ExpertSettings", "FitSettings", "RunError",
           "SampleError", "Samples", "fit", "losses", "play_batch", "run_expert"]
