"""A checkpoint's checksum is the same however its digests are computed: on the device (`_digests`, jitted; several
processes or an accelerator) or with NumPy on the host (`_host_digest`; one CPU process, no program to compile), so
checkpoints written either way verify either way."""

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax.core import checkpoint


def test_host_digests_are_the_device_digests_bit_for_bit():
    k = jax.random.PRNGKey(0)
    arrays = {"f32": jax.random.normal(k, (5, 7, 3)), "i32": jnp.arange(-50, 50, dtype=jnp.int32).reshape(10, 10),
              "bool": jax.random.bernoulli(k, 0.5, (33,)), "u8": jnp.arange(300, dtype=jnp.uint8),
              "bf16": jax.random.normal(k, (4, 9)).astype(jnp.bfloat16),
              "f16": jax.random.normal(k, (6,)).astype(jnp.float16), "scalar": jnp.float32(3.5),
              "key": jax.random.split(k, 3), "u32": jnp.array([2**32 - 1, 7], jnp.uint32)}
    names = sorted(arrays)
    device = np.asarray(checkpoint._digests([arrays[n] for n in names]))
    host = np.stack([checkpoint._host_digest(np.asarray(arrays[n])) for n in names])
    np.testing.assert_array_equal(host, device)
    changed = np.asarray(arrays["f32"]).copy()
    changed[2, 3, 1] = np.nextafter(changed[2, 3, 1], np.float32(np.inf))  # one bit of one element
    assert checkpoint._host_digest(changed)[0] != host[names.index("f32")][0]
