"""Masked PPO in one file, on the learner vector env (CleanRL's style).

The learner holds one seat of each of ``--num-envs`` games on a game's batched
engine (:func:`cardgym.vector.make_single_agent`); opponents (the game's heuristic,
random play) take the other seats in batches. Illegal actions are masked out of the
policy's logits with ``info["action_mask"]``. The env resets a finished game in the
same step (``autoreset_mode="same_step"``), so every transition is a real decision
and ``terminations`` cut the bootstrapped return where a game ended.

Run::

    python examples/ppo_vector.py --env power_hungry_pets --players 2 \\
        --opponents heuristic --num-envs 256 --updates 100

Every update prints the learner's mean return over the games that ended in it (the
rewards of docs/rules/) and the steps per second.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

import cardgym.vector


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env", default="power_hungry_pets", help="a game with a batched engine")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", nargs="+", default=["heuristic"],
                        help="random and/or heuristic, drawn per game and seat")
    parser.add_argument("--num-envs", type=int, default=256, help="games played at once")
    parser.add_argument("--num-steps", type=int, default=32, help="steps per game per update")
    parser.add_argument("--updates", type=int, default=100)
    parser.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--lr", type=float, default=2.5e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-threads", type=int, default=1)
    return parser.parse_args(argv)


class Agent(nn.Module):
    """An actor and a critic, two small MLPs over the flat observation."""

    def __init__(self, obs_dim: int, num_actions: int, hidden: int) -> None:
        super().__init__()

        def mlp(out: int, gain: float) -> nn.Sequential:
            layers = [nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                      nn.Linear(hidden, out)]
            for layer in layers:
                if isinstance(layer, nn.Linear):
                    nn.init.orthogonal_(layer.weight, gain if layer.out_features == out else 2**0.5)
                    nn.init.zeros_(layer.bias)
            return nn.Sequential(*layers)

        self.actor = mlp(num_actions, 0.01)
        self.critic = mlp(1, 1.0)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def policy(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
        logits = self.actor(obs).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits)


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Train and return what happened: per update the mean return of the games that
    ended in it, the losses, and the steps per second."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    envs = cardgym.vector.make_single_agent(args.env, args.num_envs, args.players,
                                            opponents=args.opponents, seed=args.seed,
                                            autoreset_mode="same_step")
    n, steps = args.num_envs, args.num_steps
    obs_dim = envs.single_observation_space.shape[0]
    num_actions = int(envs.single_action_space.n)
    agent = Agent(obs_dim, num_actions, args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)

    obs_buf = torch.zeros((steps, n, obs_dim))
    mask_buf = torch.zeros((steps, n, num_actions), dtype=torch.bool)
    actions_buf = torch.zeros((steps, n), dtype=torch.long)
    logp_buf = torch.zeros((steps, n))
    rewards_buf = torch.zeros((steps, n))
    dones_buf = torch.zeros((steps, n))
    values_buf = torch.zeros((steps, n))

    obs_np, info = envs.reset(seed=args.seed)
    obs, mask = torch.from_numpy(obs_np), torch.from_numpy(info["action_mask"] != 0)
    done = torch.zeros(n)
    history: list[dict[str, float]] = []
    started = time.perf_counter()
    for update in range(1, args.updates + 1):
        finished: list[float] = []
        for t in range(steps):
            obs_buf[t], mask_buf[t], dones_buf[t] = obs, mask, done
            with torch.no_grad():
                dist = agent.policy(obs, mask)
                action = dist.sample()
                logp_buf[t], values_buf[t] = dist.log_prob(action), agent.value(obs)
            actions_buf[t] = action
            obs_np, reward, terminated, truncated, info = envs.step(action.numpy())
            rewards_buf[t] = torch.from_numpy(reward.astype(np.float32))
            obs, mask = torch.from_numpy(obs_np), torch.from_numpy(info["action_mask"] != 0)
            done = torch.from_numpy((terminated | truncated).astype(np.float32))
            if "_final_return" in info:
                finished += info["final_return"][info["_final_return"]].tolist()

        # Advantages (GAE): a game's end cuts the return; the next game's first
        # observation is not its continuation.
        with torch.no_grad():
            next_value = agent.value(obs)
            advantages = torch.zeros((steps, n))
            last = torch.zeros(n)
            for t in reversed(range(steps)):
                going_on = 1.0 - (done if t == steps - 1 else dones_buf[t + 1])
                following = next_value if t == steps - 1 else values_buf[t + 1]
                delta = rewards_buf[t] + args.gamma * following * going_on - values_buf[t]
                last = delta + args.gamma * args.gae_lambda * going_on * last
                advantages[t] = last
            returns = advantages + values_buf

        flat = {"obs": obs_buf.reshape(-1, obs_dim), "mask": mask_buf.reshape(-1, num_actions),
                "actions": actions_buf.reshape(-1), "logp": logp_buf.reshape(-1),
                "advantages": advantages.reshape(-1), "returns": returns.reshape(-1)}
        size = steps * n
        batch = size // args.minibatches
        for _ in range(args.epochs):
            order = torch.randperm(size)
            for start in range(0, size, batch):
                idx = order[start:start + batch]
                dist = agent.policy(flat["obs"][idx], flat["mask"][idx])
                ratio = (dist.log_prob(flat["actions"][idx]) - flat["logp"][idx]).exp()
                adv = flat["advantages"][idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(-adv * ratio,
                                        -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                value_loss = 0.5 * (agent.value(flat["obs"][idx]) - flat["returns"][idx]).pow(2).mean()
                entropy = dist.entropy().mean()
                loss = policy_loss - args.ent_coef * entropy + args.vf_coef * value_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()

        elapsed = time.perf_counter() - started
        record = {"update": update, "steps": update * size, "games": len(finished),
                  "mean_return": float(np.mean(finished)) if finished else float("nan"),
                  "policy_loss": policy_loss.item(), "value_loss": value_loss.item(),
                  "entropy": entropy.item(), "steps_per_second": update * size / elapsed}
        history.append(record)
        print(f"update {update:4d}  steps {record['steps']:9,d}  games {len(finished):5d}  "
              f"mean return {record['mean_return']:+.3f}  entropy {record['entropy']:.3f}  "
              f"{record['steps_per_second']:8,.0f} steps/s", flush=True)
    envs.close()
    return {"history": history, "agent": agent}


def main(argv: Sequence[str] | None = None) -> int:
    train(arguments(argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
