//! Resuming an interrupted `chuhe train` run. After every epoch the run writes `NET.ckpt`
//! (a temporary file renamed over the old one): the epochs done, the weights, Adam's moments
//! and step count, and the best validation epoch so far. Started again with the same flags,
//! data and thread count, the run reads it and goes on with the next epoch; the sample order
//! and mirroring of the epochs done are replayed from the seed, and a batch's gradient is
//! summed in the same order for the same thread count, so the net written is the same as that
//! of a run never stopped.

use super::net::FloatNet;
use crate::eval::nnue::Arch;

/// The state of a run after `epochs` epochs.
#[derive(Clone)]
pub struct Checkpoint {
    /// Epochs finished.
    pub epochs: usize,
    /// The weights after them.
    pub net: FloatNet,
    /// Adam's first moments.
    pub m: FloatNet,
    /// Adam's second moments.
    pub v: FloatNet,
    /// Adam's step count.
    pub adam_steps: i32,
    /// The lowest validation loss so far and its epoch's weights.
    pub best: Option<(f64, FloatNet)>,
}

/// The first bytes of a checkpoint file.
const MAGIC: &[u8; 8] = b"CHUHECKP";

impl Checkpoint {
    /// The file's bytes, for the run `fingerprint`.
    pub fn encode(&self, fingerprint: u64) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&fingerprint.to_le_bytes());
        out.extend_from_slice(&(self.epochs as u64).to_le_bytes());
        out.extend_from_slice(&self.adam_steps.to_le_bytes());
        let best_loss = self.best.as_ref().map_or(f64::NAN, |b| b.0);
        out.push(u8::from(self.best.is_some()));
        out.extend_from_slice(&best_loss.to_le_bytes());
        let mut nets = vec![&self.net, &self.m, &self.v];
        nets.extend(self.best.as_ref().map(|b| &b.1));
        for net in nets {
            for t in net.tensors() {
                t.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
            }
        }
        out
    }

    /// Reads a checkpoint of a net of shape `arch`; `Ok(None)` when it belongs to another
    /// run (`fingerprint` differs). Errors name the byte where the file goes wrong.
    pub fn decode(b: &[u8], arch: Arch, fingerprint: u64) -> Result<Option<Checkpoint>, String> {
        const HEAD: usize = 8 + 8 + 8 + 4 + 1 + 8;
        if b.len() < HEAD || &b[..8] != MAGIC {
            return Err("not a chuhe train checkpoint (no CHUHECKP header)".into());
        }
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        if u64_at(8) != fingerprint {
            return Ok(None);
        }
        let epochs = u64_at(16) as usize;
        let adam_steps = i32::from_le_bytes(b[24..28].try_into().expect("4 bytes"));
        let has_best = b[28] == 1;
        let best_loss = f64::from_bits(u64_at(29));
        let mut at = HEAD;
        let mut read_net = || -> Result<FloatNet, String> {
            let mut net = FloatNet::zeros(arch);
            for t in net.tensors_mut() {
                let end = at + 4 * t.len();
                let bytes = b.get(at..end).ok_or_else(|| {
                    format!("truncated at byte {}: the weights need {} bytes from byte {at}", b.len(), end - at)
                })?;
                for (x, c) in t.iter_mut().zip(bytes.chunks_exact(4)) {
                    *x = f32::from_le_bytes(c.try_into().expect("4 bytes"));
                }
                at = end;
            }
            Ok(net)
        };
        let (net, m, v) = (read_net()?, read_net()?, read_net()?);
        let best = if has_best { Some((best_loss, read_net()?)) } else { None };
        if at != b.len() {
            return Err(format!("{} bytes after the last weights at byte {at}", b.len() - at));
        }
        Ok(Some(Checkpoint { epochs, net, m, v, adam_steps, best }))
    }
}

/// The checkpoint file of the net file `out`.
pub fn path_of(out: &str) -> String {
    format!("{out}.ckpt")
}

/// Writes `bytes` to `path` by way of a temporary file renamed over it, so that a kill
/// leaves the old checkpoint or the new one, never half of one.
pub fn save(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_round_trips_and_a_cut_one_names_its_byte() {
        let arch = Arch::ONE;
        let mut net = FloatNet::random(arch, 3);
        net.b2[0] = 0.25;
        let c = Checkpoint {
            epochs: 4,
            net: net.clone(),
            m: FloatNet::random(arch, 4),
            v: FloatNet::zeros(arch),
            adam_steps: 77,
            best: Some((0.125, net)),
        };
        let bytes = c.encode(9);
        let back = Checkpoint::decode(&bytes, arch, 9).unwrap().unwrap();
        assert_eq!(back.encode(9), bytes);
        assert_eq!((back.epochs, back.adam_steps, back.best.as_ref().map(|b| b.0)), (4, 77, Some(0.125)));
        assert!(Checkpoint::decode(&bytes, arch, 10).unwrap().is_none(), "another run's");
        let err = Checkpoint::decode(&bytes[..bytes.len() - 3], arch, 9).err().unwrap();
        assert!(err.starts_with(&format!("truncated at byte {}", bytes.len() - 3)), "{err}");
        assert!(Checkpoint::decode(b"junk", arch, 9).err().unwrap().contains("not a chuhe train checkpoint"));
    }
}
