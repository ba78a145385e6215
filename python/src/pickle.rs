//! Games pickle (multiprocessing, Ray) as the call that made them and the actions played
//! since: unpickling makes the game again and replays them, which gives back the very
//! position, score and pieces to come, since every game is dealt from its seed.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// The call that made a game: `owner(*args, **kwargs)`, or `owner.attr(*args, **kwargs)`
/// (`Tetris.from_board`, `Player.new_game`).
pub struct Recipe {
    owner: Py<PyAny>,
    attr: Option<&'static str>,
    args: Py<PyTuple>,
    kwargs: Py<PyDict>,
}

impl Recipe {
    pub fn new(
        owner: Bound<'_, PyAny>,
        attr: Option<&'static str>,
        args: Bound<'_, PyTuple>,
        kwargs: Bound<'_, PyDict>,
    ) -> Recipe {
        Recipe {
            owner: owner.unbind(),
            attr,
            args: args.unbind(),
            kwargs: kwargs.unbind(),
        }
    }

    /// Keyword arguments as a dict.
    pub fn keywords<'py>(
        py: Python<'py>,
        items: &[(&str, Bound<'py, PyAny>)],
    ) -> PyResult<Bound<'py, PyDict>> {
        let kwargs = PyDict::new(py);
        for (key, value) in items {
            kwargs.set_item(key, value)?;
        }
        Ok(kwargs)
    }

    pub fn clone_ref(&self, py: Python<'_>) -> Recipe {
        Recipe {
            owner: self.owner.clone_ref(py),
            attr: self.attr,
            args: self.args.clone_ref(py),
            kwargs: self.kwargs.clone_ref(py),
        }
    }

    /// `__reduce__`'s answer for a game made by this recipe that has since played `actions`,
    /// its dealer at `mark` (see [`Engine::dealer_mark`](crate::engine::Engine::dealer_mark)).
    pub fn reduce<'py>(
        &self,
        py: Python<'py>,
        actions: &[u16],
        mark: Option<u128>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("stacktune")?.getattr("_rebuild")?;
        let args = (
            self.owner.bind(py),
            self.attr,
            self.args.bind(py),
            self.kwargs.bind(py),
            actions.to_vec(),
            mark,
        )
            .into_pyobject(py)?;
        Ok((rebuild, args))
    }
}
