"""Pictures of the table through every env kind: SingleAgentEnv's render modes,
Gymnasium's RecordVideo over a game of each title, the parallel env, and nothing
drawn unless a render is asked for."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.wrappers import RecordVideo

from agents.single_agent import SingleAgentEnv
from cardgym.errors import OptionError, ViewerError

TITLES = ("power_hungry_pets", "exploding_kittens", "karel_kakelaar")


@pytest.mark.parametrize("game", TITLES)
def test_record_video_records_a_game_of_each_title(game: str, tmp_path: Path) -> None:
    """Gymnasium's RecordVideo takes SingleAgentEnv's rgb_array frames (one per step of
    the learner) and writes a video of a whole game."""
    inner = SingleAgentEnv(game, 2, render_mode="rgb_array")
    env = RecordVideo(inner, str(tmp_path / "videos"), episode_trigger=lambda episode: True,
                      disable_logger=True)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps, done = 0, False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # moviepy's own notices
        while not done:
            _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(inner.action_masks()))))
            steps += 1
        env.close()
    videos = sorted((tmp_path / "videos").glob("*.mp4"))
    assert steps > 0 and len(videos) == 1, f"no video in {tmp_path}"
    assert videos[0].stat().st_size > 1000


def test_single_agent_env_renders_the_learners_seat_by_default() -> None:
    env = SingleAgentEnv("power_hungry_pets", 3, render_mode="ansi", learner_seat=2)
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "seen by player_2" in text
    picture = SingleAgentEnv("power_hungry_pets", 3, render_mode="rgb_array", learner_seat=2)
    picture.reset(seed=0)
    image = picture.render()
    assert isinstance(image, np.ndarray) and image.shape == (800, 1280, 3)
    assert image.dtype == np.uint8
    full = SingleAgentEnv("power_hungry_pets", 3, render_mode="rgb_array", learner_seat=2,
                          render_seat="full")
    full.reset(seed=0)
    assert not np.array_equal(full.render(), image)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"render_mode": "video"}, "render_mode='video' is not supported; allowed: None, 'ansi', "
                               "'human', 'rgb_array'"),
    ({"render_mode": "rgb_array", "render_seat": 3}, "render_seat=3 is not allowed; allowed: "
                                                     "None \\(the learner's seat\\), 'full', "
                                                     "or a seat 0..2"),
    ({"render_mode": "rgb_array", "render_seat": True}, "render_seat=True is not allowed"),
])
def test_single_agent_env_refuses_a_bad_render_argument(kwargs: dict, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        SingleAgentEnv("power_hungry_pets", 3, **kwargs)


def test_render_without_a_mode_warns_and_draws_nothing() -> None:
    env = SingleAgentEnv("karel_kakelaar", 2)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None


def test_the_parallel_env_draws_the_seat_whose_commit_is_next_or_a_given_seat() -> None:
    from kakelaar_env.parallel import parallel_env

    env = parallel_env(num_players=3, render_mode="rgb_array", render_seat=1)
    observations, _ = env.reset(seed=2)
    image = env.render()
    assert isinstance(image, np.ndarray) and image.shape == (800, 1280, 3)
    rng = np.random.default_rng(0)
    actions = {agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
               for agent, obs in observations.items()}
    env.step(actions)
    assert not np.array_equal(env.render(), image)
    assert env.unwrapped.render_image("full").shape == (800, 1280, 3)
    with pytest.raises(ViewerError, match="player_0, player_1, player_2"):
        env.unwrapped.render_image(7)


def test_nothing_is_drawn_unless_a_render_is_asked_for() -> None:
    """A whole game under render_mode='rgb_array' without render() calls, and one
    without a render mode, never import the drawing (Pillow); render() does."""
    script = """
import sys
import numpy as np
from phpets_env.env import env
rng = np.random.default_rng(0)
for mode in (None, "rgb_array"):
    game = env(num_players=3, render_mode=mode)
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        action = None if terminated or truncated else int(
            rng.choice(np.flatnonzero(observation["action_mask"])))
        game.step(action)
    game.unwrapped.table_view(0)
print("PIL" in sys.modules, "cardgym.picture" in sys.modules)
game.render()
print("PIL" in sys.modules, "cardgym.picture" in sys.modules)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.split() == ["False", "False", "True", "True"]
